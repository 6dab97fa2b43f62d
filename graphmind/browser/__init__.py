"""What graphmind ships for Neo4j Browser: a style sheet (``graphmind.grass``) and the queries a
researcher needs (``cypher/browser/*.cypher``), printed by ``graphmind browse``."""
