"""warmdemo: a Click CLI whose import costs about a second (as a large CLI's
does), for aeat-mcp's warm-start tests and benchmarks. Each verb is one thing
a test needs a call to do; the verbs that report pids print them as JSON
lines before they do anything else."""

import importlib.metadata
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

IMPORT_PID = os.getpid()
# The environment the import saw: a warm template's must be a call's.
IMPORT_ENV = dict(os.environ)
IMPORTS = int(os.environ.get("WARMDEMO_IMPORTS", "0")) + 1
time.sleep(float(os.environ.get("WARMDEMO_IMPORT_SECONDS", "1")))
if os.environ.get("WARMDEMO_KILLED_IN_TEMPLATE") == "1" and hasattr(sys.modules.get("__main__"), "_CFG"):
    # A template killed while it imports (the OOM killer, a person's
    # kill): it never says it is ready. A cold run (whose __main__ is the
    # CLI's script, not the template) is not.
    os.kill(os.getpid(), signal.SIGKILL)
if os.environ.get("WARMDEMO_THREAD") == "1":
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
if os.environ.get("WARMDEMO_THREAD_ON_SIGNAL") == "1":
    # A thread that appears later, as a library's background worker would:
    # the template must refuse to fork once it is there. It starts when the
    # template is sent SIGUSR1 (a test does, once the template serves), not
    # after a time a loaded machine outlasts before the template is ready.
    # WARMDEMO_THREAD_MARK names a file that, suffixed with this process's
    # pid, is made once the thread runs: what a test waits for.
    def _late_thread(*_):
        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
        if os.environ.get("WARMDEMO_THREAD_MARK"):
            open("%s.%d" % (os.environ["WARMDEMO_THREAD_MARK"], os.getpid()), "w").close()

    signal.signal(signal.SIGUSR1, _late_thread)

# A generator made at import, as a library's own is (botocore's, a
# retry-jitter helper's): each call must draw its own numbers, as a fresh
# interpreter's would.
_RNG = __import__("random").Random()
# A file opened at import and read per call: a warm template must not share
# its offset with every call.
_OPENED = open(os.environ["WARMDEMO_OPEN_AT_IMPORT"]) if os.environ.get("WARMDEMO_OPEN_AT_IMPORT") else None
# A log opened for appending at import, as aeat's own is: every write goes to
# its end, whoever writes it.
_LOG = open(os.environ["WARMDEMO_LOG_AT_IMPORT"], "a") if os.environ.get("WARMDEMO_LOG_AT_IMPORT") else None
if os.environ.get("WARMDEMO_FORK_UNSAFE") == "1":
    # What macOS's runtimes do to a child forked from a parent that used
    # them: it dies when it touches the proxy settings (SystemConfiguration).
    import urllib.request

    _getproxies = urllib.request.getproxies

    def _unsafe_getproxies():
        if os.getpid() != IMPORT_PID:
            os.abort()
        return _getproxies()

    urllib.request.getproxies = _unsafe_getproxies
if os.environ.get("WARMDEMO_FORK_SLOW") == "1":
    # A forked child that does not get far (a lock the fork copied, a
    # machine with no core to spare): the canary's wait runs out.
    import urllib.request

    _getproxies = urllib.request.getproxies

    def _slow_getproxies():
        if os.getpid() != IMPORT_PID:
            time.sleep(3600)
        return _getproxies()

    urllib.request.getproxies = _slow_getproxies

# A CLI whose set-up allocates a large buffer and frees it, as the real
# aeat's does: glibc's malloc then raises its mmap threshold to that size,
# so a buffer of WARMDEMO_IMPORT_HEAP_MIB is carved from heap pages the
# import wrote — pages a warm child shares with its template.
if os.environ.get("WARMDEMO_IMPORT_HEAP_MIB"):
    _mib = int(os.environ["WARMDEMO_IMPORT_HEAP_MIB"]) << 20
    _buf = bytearray(_mib + (1 << 20))  # mapped, and unmapped by del
    del _buf
    _buf = bytearray(_mib)  # below the raised threshold: from the heap
    del _buf

# A buffer the import made and keeps, every page of it written: pages a warm
# child shares with its template until it writes them (scribble), as
# CPython's reference counts are in the objects a large CLI imported.
_KEPT = bytearray(b"k" * (int(os.environ.get("WARMDEMO_KEEP_MIB", "0")) << 20))

# What a CLI does to its own environment at import (awscli sets
# AWS_DATA_PATH so botocore finds its data): a warm call must see it too.
os.environ.setdefault("WARMDEMO_DEFAULTED", "by the import")
os.environ["WARMDEMO_DATA_PATH"] = os.pathsep.join(filter(None, [os.environ.get("WARMDEMO_DATA_PATH"), "warmdemo-data"]))

import click  # noqa: E402

from . import settings  # noqa: E402


def _say(**kw):
    print(json.dumps(kw), flush=True)
    if os.environ.get("WARMDEMO_PIDFILE"):
        with open(os.environ["WARMDEMO_PIDFILE"], "a") as f:
            f.write(json.dumps(kw) + "\n")


@click.group()
def cli():
    """The warm-start test CLI."""


@cli.command()
@click.option("--name", default="world")
def hello(name):
    click.echo("hello %s" % name)


@cli.command()
@click.argument("group")
def plugins(group):
    """The entry points of group, as a CLI finds its plugins, and how many
    entry_points.txt files this call read to find them."""
    reads = []
    read_text = importlib.metadata.PathDistribution.read_text

    def counted(self, filename):
        if filename == "entry_points.txt":
            reads.append(filename)
        return read_text(self, filename)

    importlib.metadata.PathDistribution.read_text = counted
    try:
        names = sorted(ep.name for ep in importlib.metadata.entry_points(group=group))
    finally:
        importlib.metadata.PathDistribution.read_text = read_text
    _say(plugins=names, reads=len(reads))


@cli.command()
def whoami():
    """Where and how this call runs."""
    cg = ""
    if os.path.exists("/proc/self/cgroup"):
        with open("/proc/self/cgroup") as f:
            cg = f.read()
    _say(pid=os.getpid(), ppid=os.getppid(), import_pid=IMPORT_PID, warm=IMPORT_PID != os.getpid(),
         sid=os.getsid(0), pgid=os.getpgid(0), cwd=os.getcwd(), argv0=sys.argv[0], cgroup=cg,
         tmp=tempfile.gettempdir(), threads=threading.active_count())


@cli.command("env")
@click.argument("name")
def env_(name):
    click.echo(os.environ.get(name, ""))


@cli.command()
@click.argument("name")
def importenv(name):
    """NAME's value as the CLI's import saw it."""
    click.echo(IMPORT_ENV.get(name, ""))


@cli.command()
@click.argument("name")
def envsum(name):
    """The SHA-256 of a variable's value: proof a secret arrived, without
    printing it."""
    import hashlib

    _say(sha256=hashlib.sha256(os.environ.get(name, "").encode()).hexdigest(), warm=IMPORT_PID != os.getpid())


@cli.command()
def setting():
    click.echo(settings.get_settings()["greeting"])


@cli.command("sleep")
@click.argument("seconds", type=float)
def sleep_(seconds):
    _say(pid=os.getpid())
    time.sleep(seconds)


@cli.command()
@click.argument("path")
def gate(path):
    """Reports its pid, then waits until PATH exists and exits 0: a call
    that ends when a test says, not after a time."""
    _say(pid=os.getpid())
    while not os.path.exists(path):
        time.sleep(0.02)


@cli.command("wait")
@click.argument("path")
@click.argument("mark")
def wait_(path, mark):
    """Appends its pid to MARK, then waits until PATH exists and prints
    "waited": the same output every run (a verify argv), and, as a warm-up,
    the template's pid in MARK while it starts."""
    with open(mark, "a") as f:
        f.write("%d\n" % os.getpid())
    while not os.path.exists(path):
        time.sleep(0.02)
    print("waited")


@cli.command()
@click.argument("seconds", type=float)
def termproof(seconds):
    """Ignores SIGTERM."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _say(pid=os.getpid())
    time.sleep(seconds)


@cli.command()
@click.option("--stay", type=float, default=0)
def daemon(stay):
    """Starts a grandchild in a session of its own (as Playwright starts a
    browser), then stays or exits."""
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _say(pid=os.getpid(), grandchild=p.pid)
    time.sleep(stay)


@cli.command()
@click.argument("mib", type=int)
def flood(mib):
    line = b"x" * 1023 + b"\n"
    out = sys.stdout.buffer
    for _ in range(mib * 1024):
        out.write(line)
    out.flush()


@cli.command()
@click.argument("mib", type=int)
def alloc(mib):
    _say(pid=os.getpid())
    held = bytearray(mib << 20)
    for i in range(0, len(held), 4096):
        held[i] = 1
    time.sleep(60)


@cli.command()
@click.argument("mib", type=int)
def touch(mib):
    """Writes to MIB fresh MiB, a page at a time, and ends: a call whose
    page faults a test can count."""
    held = bytearray(mib << 20)
    for i in range(0, len(held), 4096):
        held[i] = 1
    click.echo("touched %d MiB" % mib)


@cli.command()
@click.argument("mib", type=int)
def scribble(mib):
    """Writes a byte in each 4 KiB page of the first MIB MiB of the buffer
    the import kept (WARMDEMO_KEEP_MIB), and ends: a warm call that copies
    pages of its template."""
    for i in range(0, min(mib << 20, len(_KEPT)), 4096):
        _KEPT[i] = 0x73
    click.echo("scribbled %d MiB" % mib)


@cli.command("stdin")
def stdin_():
    data = sys.stdin.read()
    click.echo("%d:%s" % (len(data), data))


@cli.command()
def startmode():
    """Says how it started: what a verify call must never do."""
    click.echo("warm" if IMPORT_PID != os.getpid() else "cold")


@cli.command("rand")
def rand_():
    """A number from a generator made at import."""
    click.echo(repr(_RNG.random()))


@cli.command()
def readline():
    """A line of the file opened at import."""
    click.echo(_OPENED.readline().rstrip("\n") if _OPENED else "no file")


@cli.command()
def forkcrash():
    """Dies as macOS kills a forked child that touches what it may not."""
    if IMPORT_PID != os.getpid():
        os.abort()
    click.echo("cold")


@cli.command()
def stats():
    """Imports what only it needs when it runs, as a large CLI's verbs do."""
    import statistics

    click.echo(statistics.mean([1, 2, 3]))


_TABLE = None


def build_table():
    """One-time set-up a verb does on its first run in a process, beyond
    imports (aeat loads its registry of forms): cli.warm.preload may do it in
    the template."""
    global _TABLE
    if _TABLE is None:
        _TABLE = {"built_by": os.getpid()}
    return _TABLE


@cli.command()
def table():
    click.echo("built" if build_table()["built_by"] == os.getpid() else "inherited")


@cli.command("exit")
@click.argument("code", type=int)
def exit_(code):
    click.echo("exiting %d" % code)
    sys.exit(code)


_KEEP = []  # what a verb leaves for the interpreter's exit to finalize


@cli.command()
@click.argument("kind")
@click.argument("path", required=False)
def ending(kind, path):
    """Leaves something for the interpreter's exit to do, as CLIs do: a warm
    call must end exactly as a cold one."""
    if kind == "atexit":
        import atexit

        atexit.register(lambda: sys.stdout.write("atexit ran\n"))
    elif kind == "thread":
        def late():
            time.sleep(0.3)
            print("the thread finished", flush=True)

        threading.Thread(target=late).start()
    elif kind == "unclosed":
        f = open(path, "w")
        f.write("x" * 100000)
        f.write("end\n")  # left in the buffer
        _KEEP.append(f)
    elif kind == "tempfile":
        t = tempfile.NamedTemporaryFile(dir=path, prefix="warmdemo-")
        _KEEP.append(t)
        click.echo(os.path.basename(t.name))
    elif kind == "message":
        sys.exit("goodbye from sys.exit")
    elif kind == "raise":
        raise RuntimeError("boom")
    elif kind == "unflushed":
        sys.stdout.write("no newline, never flushed")
        sys.stderr.write("stderr, never flushed")
    elif kind == "returns":
        sys.exit(None)


@cli.group()
def lazy():
    """A group whose commands load on first use, as a large CLI's do."""


class _Lazy(click.Group):
    def list_commands(self, ctx):
        return ["report"]

    def get_command(self, ctx, name):
        if name != "report":
            return None
        from . import lazy_report

        return lazy_report.report


lazy.add_command(_Lazy("more"))


def main():
    if os.environ.get("WARMDEMO_INTERRUPT") == "1":
        raise KeyboardInterrupt  # what Ctrl-C in a console script's main does
    return cli()
