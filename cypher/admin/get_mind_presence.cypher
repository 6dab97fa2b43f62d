// mode: read
// params: mind
// Whether any node of the mind exists (a mind exists once something was written to it).
RETURN EXISTS { MATCH (n:Memory) WHERE n.mind = $mind } OR EXISTS { MATCH (n:Run) WHERE n.mind = $mind } AS present
