// Turn recall's graph reads stay index seeks as a conversation mind grows (issue 26, item 5):
// the sessions of a mind dated inside a question's time window, and the mind's latest session
// (the date a question's "last May" is read against) by index order.
CREATE INDEX session_started IF NOT EXISTS FOR (n:Session) ON (n.mind, n.started_at);
