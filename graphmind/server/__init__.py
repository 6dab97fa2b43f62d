"""graphmind over HTTP: the REST API (FastAPI), its API keys, and ``graphmind serve``."""
