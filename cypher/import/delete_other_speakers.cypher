// mode: write
// params: mind, rows
// A turn has the speakers its import gives it: a turn imported again links SPOKEN_BY to the
// mind's Identity or a Partnership added since, and its SPOKEN_BY edge to the node an earlier
// import linked (the Person "person-<name>") goes. The Person node stays. row: {turn, speakers}
// (uids). Returns how many edges went.
UNWIND $rows AS row
MATCH (turn:Memory {uid: row.turn})-[spoken:SPOKEN_BY]->(other:Memory)
WHERE turn.mind = $mind AND NOT other.uid IN row.speakers
DELETE spoken
RETURN count(spoken) AS deleted
