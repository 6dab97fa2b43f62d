"""The one error hierarchy of graphmind.

GraphmindError
├── InputError                  bad input or usage: the CLI exits 2
│   ├── ConfigError             a setting from the environment is invalid
│   │   ├── ProviderAuthError   the LLM provider refused the API key (401/403)
│   │   └── ModelUnavailableError   the embedding model is not installed or unreadable
│   ├── ValidationError         an import line or a value fails the model (line, field)
│   ├── UnknownLabelError       a label or relationship type outside the whitelist
│   └── NotFoundError           a file, mind or node that does not exist
└── RunError                    the run failed: the CLI exits 1
    ├── StoreError              the graph store failed (query)
    │   ├── StoreUnavailableError   Neo4j does not answer
    │   ├── StoreRejectedError      Neo4j refused the data it was given (reason)
    │   │   └── ConstraintViolationError
    │   └── CatalogError        a .cypher file is missing or its header is wrong
    ├── LauncherError           the local Neo4j could not be resolved, started or stopped
    │   └── PortInUseError
    ├── SchemaError             schema could not be applied or did not come ONLINE
    ├── GroundingError          a Context Object states what its sources do not hold (ValueError)
    └── ProviderError           an LLM or embedder call failed (names the provider)
        ├── ProviderUnavailableError   rate limits or server errors past the retry budget
        └── LLMOutputError      the model's output failed validation, even after one re-ask
"""

from __future__ import annotations


class GraphmindError(Exception):
    """Root of every error graphmind raises on purpose."""

    exit_code = 1


class InputError(GraphmindError):
    """The caller gave something graphmind cannot accept."""

    exit_code = 2


class ConfigError(InputError):
    """A setting read from the environment is invalid."""


class ValidationError(InputError):
    """A value, or a line of an import file, fails validation."""

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None, reason: str | None = None):
        self.line = line
        self.field = field
        self.reason = reason or message  # the message without its "line N, field F: " prefix
        super().__init__(message)


class UnknownLabelError(ValidationError):
    """A label or relationship type that is not in the model's whitelist."""


class ProviderAuthError(ConfigError):
    """The LLM provider refused the configured API key; ``provider`` names which one."""

    def __init__(self, message: str, *, provider: str | None = None):
        self.provider = provider
        super().__init__(message)


class ModelUnavailableError(ConfigError):
    """The embedding model is not installed, or its files cannot be read."""


class NotFoundError(InputError):
    """A file, mind or node that does not exist."""


class ConflictError(InputError):
    """The call would overwrite something that exists (a capture under an id another memory holds)."""


class RunError(GraphmindError):
    """A run started with good input but failed."""


class StoreError(RunError):
    """The graph store failed to run a query."""

    def __init__(self, message: str, *, query: str | None = None):
        self.query = query
        super().__init__(message)


class StoreUnavailableError(StoreError):
    """Neo4j cannot be reached."""


class StoreRejectedError(StoreError):
    """Neo4j refused the data a query was given (a value or a name it cannot store), not the
    query itself: the same call fails again, and other data may pass. ``reason`` is the
    server's own message."""

    def __init__(self, message: str, *, query: str | None = None, reason: str | None = None):
        super().__init__(message, query=query)
        self.reason = reason or message


class ConstraintViolationError(StoreRejectedError):
    """A write broke a uniqueness or existence constraint."""


class CatalogError(StoreError):
    """A named query is missing or its header does not match its use."""


class LauncherError(RunError):
    """The local Neo4j could not be resolved, started or stopped."""


class PortInUseError(LauncherError):
    """A port the local Neo4j needs is already taken."""


class SchemaError(RunError):
    """The schema could not be applied, or its indexes did not come ONLINE."""


class ProviderError(RunError):
    """An LLM or embedder call failed; ``provider`` names which one."""

    def __init__(self, message: str, *, provider: str | None = None):
        self.provider = provider
        super().__init__(message)


class ProviderUnavailableError(ProviderError):
    """The provider kept answering with rate limits or server errors past the retry budget."""


class LLMOutputError(ProviderError):
    """The model's output did not validate against the prompt's output type, even after a re-ask."""


class GroundingError(RunError, ValueError):
    """A Context Object would state something its sources do not hold (the context-object
    spec's ``ValueError``); ``atoms`` lists each unsupported piece as (section, kind, text)."""

    def __init__(self, message: str, *, atoms: list[tuple[str, str, str]] | None = None):
        super().__init__(message)
        self.atoms = atoms or []
