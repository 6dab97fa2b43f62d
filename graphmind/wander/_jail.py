"""The wander REPL child's launcher: ``python -I _jail.py <script>`` (see ``repl``).

Started as root, it reads ``<script>``, imports the modules the sandbox needs (the interpreter's
standard library may not be readable by ``nobody``), drops to ``nobody`` (no supplementary
groups) and only then runs the script as ``__main__``. The drop does not depend on the script:
code that escaped the sandbox's language layer still runs as ``nobody``, for whom file
permissions hold and ``RLIMIT_NPROC`` 0 forbids forking. Not root: nothing to drop. A drop that
fails (no ``CAP_SETUID``) is said on stderr and the script runs as it is; the sandbox reports
its uid, and the parent lists the layers that held.
"""

import __future__  # noqa: F401 - preloaded for the sandbox, before the standard library may be out of reach

import ast  # noqa: F401
import errno  # noqa: F401
import json  # noqa: F401
import math  # noqa: F401
import operator  # noqa: F401
import os
import pwd
import re  # noqa: F401
import resource  # noqa: F401
import sys
import time  # noqa: F401
import types  # noqa: F401

# Imported here, before the privileges drop, so the sandbox can load them afterwards.
import RestrictedPython
import RestrictedPython.Guards
import RestrictedPython.PrintCollector
import RestrictedPython.transformer  # noqa: F401

NOBODY = 65534


def drop_privileges() -> None:
    if os.geteuid() != 0:
        return
    try:
        entry = pwd.getpwnam("nobody")
        uid, gid = entry.pw_uid, entry.pw_gid
    except KeyError:
        uid = gid = NOBODY
    try:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    except OSError as exc:
        print(f"graphmind sandbox: could not drop to nobody ({exc.strerror})", file=sys.stderr)


def main() -> None:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as script:
        source = script.read()
    drop_privileges()
    del sys.argv[0]
    exec(compile(source, path, "exec"), {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})


if __name__ == "__main__":
    main()
