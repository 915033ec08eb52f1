"""A fake GTP engine for tests/test_arena_gtp_slow.py: it answers every command at once
except ``genmove``, which it answers with ``pass`` after sleeping the seconds given as its
first argument (a slow engine on a loaded machine; ``inf`` never answers). Written for
this repository, not copied."""

import sys
import time

delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("=\n", flush=True)
        break
    if words[0] == "genmove":
        time.sleep(min(delay, 3600.0))
        print("= pass\n", flush=True)
    elif words[0] == "protocol_version":
        print("= 2\n", flush=True)
    else:
        print("=\n", flush=True)
