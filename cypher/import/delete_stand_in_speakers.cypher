// mode: write
// params: mind, rows
// A turn an import now links SPOKEN_BY to the Partnership or the Identity of its speaker's name
// loses its SPOKEN_BY edge to the stand-in Person "person-<name>" an earlier import made, once
// the new edge is there. The Person node stays. row: {turn, person} (uids). Returns how many
// edges went.
UNWIND $rows AS row
MATCH (turn:Turn {uid: row.turn})-[spoken:SPOKEN_BY]->(person:Person {uid: row.person})
WHERE turn.mind = $mind AND person.mind = $mind
  AND EXISTS { (turn)-[:SPOKEN_BY]->(other:Memory) WHERE other <> person }
DELETE spoken
RETURN count(spoken) AS deleted
