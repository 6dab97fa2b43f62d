// mode: autocommit
// params:
// Every index with its state (constraints' backing indexes included).
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties
RETURN name, type, state, labelsOrTypes, properties
ORDER BY name
