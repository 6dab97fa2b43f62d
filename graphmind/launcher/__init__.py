"""The local Neo4j: Neo4j Community from Maven Central jars, run without Docker."""

from graphmind.launcher.local import LocalNeo4j, Neo4jStatus

__all__ = ["LocalNeo4j", "Neo4jStatus"]
