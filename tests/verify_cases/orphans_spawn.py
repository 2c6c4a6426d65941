"""What the Cells of orphans.py and orphans_fixed.py start at every build (tests/test_verify_orphans.py).

`sleep` in a session of its own inherits the environment, and so the test's token; the daemon, made
the classic way (fork, setsid, fork again), gets an empty environment and carries the token in its
argv only. Each build appends its worker's directory and the two pids to the file named by
GRAPHMEND_TEST_SPAWNED, so that the test knows they ran. None may outlive verify.
"""

import os
import subprocess
import sys

# tells the Cell its pid through the pipe whose end is argv[1], then sleeps; argv[2] is the token
DAEMON = """
import os, sys, time
out = int(sys.argv[1])
os.write(out, b"%d" % os.getpid())
os.close(out)
time.sleep(300)
"""


def detach():
    sleep = subprocess.Popen(["sleep", "300"], start_new_session=True)
    daemon = daemonize(os.environ.get("GRAPHMEND_TEST_TOKEN", "untagged"))
    with open(os.environ["GRAPHMEND_TEST_SPAWNED"], "a") as record:
        record.write(f"{os.path.basename(os.getcwd())} {sleep.pid} {daemon}\n")


def daemonize(token):
    """The daemon's pid, once it runs; it is nobody's child once the middle process has exited."""
    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                os.set_inheritable(write, True)
                os.execve(sys.executable, [sys.executable, "-c", DAEMON, str(write), token], {})
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(middle, 0)
    with os.fdopen(read, "rb") as pipe:
        return int(pipe.read())  # until the daemon closes its end
