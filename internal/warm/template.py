# aeat-mcp's warm template (internal/warm). The server runs it as
#     PYTHON -c <this file> CONFIG_JSON
# with fd 3 a Unix stream socket to the server (the control socket), stdin
# the null device, stdout and stderr a pipe to the server's log. It imports
# the CLI once, then forks one child per call. Nothing here is the CLI's.
#
# Control socket, server -> template: one byte "F" carrying one descriptor,
# the template's end of a socket pair made for one call, and where the server
# made one, a second: the cgroup directory the next spare is forked into
# (_Spares.berth; none when it brings none). Template -> server:
# JSON lines ({"ready": ...} once, or {"error": ...} before exiting).
#
# Call socket, server -> template: one byte "C" carrying four descriptors
# (stdin, stdout, stderr, the read end of the go pipe) and, where the call
# has a cgroup the child can be forked into, a fifth: its directory (see
# _fork). Then nothing, until
# the server closes it: the call is over, and the child is killed if it
# still runs, then reaped. The template never learns the call's argv,
# directory or environment: the server writes them on the go pipe (a 4-byte
# big-endian length, then that many bytes of JSON {"argv": [...], "cwd":
# "...", "env": ["K=V", ...]}) once the child is in the call's tree, and the
# child alone reads them — a secret loaded at call time never reaches the
# template.
# Template/child -> server: lines. "P pid ppid c|f" (the child, once it
# leads a session of its own; c: it was born in the call's cgroup, f: forked
# in the template's — it does not die with the template: the call's tree
# holds it, and the server waits for it), "X e CODE" / "X s SIGNUM"
# (the template, once the child exited; it stays a zombie until the close —
# on Linux followed by " r MINFLT MAJFLT USER_US SYS_US", what the zombie
# used, see _waitid_usage), "T N" (no fork: the template has N threads),
# "E why" (no fork).
# The server's side of all this is protocol.go; protocol_test.go loads this
# file under another name (it then does not serve) and decodes what the
# _send, _line_* and _read_request functions below encode.

import errno
import functools
import gc
import json
import marshal
import os
import resource
import select
import signal
import socket
import struct
import sys
import time

_CTRL_FD = 3
_CFG = json.loads(sys.argv[1])
# Debugging (docs/warm-start.md, "Where a warm call's CPU goes"): with
# AEAT_MCP_WARM_TRACE=DIR in the template's environment, every call's child
# writes DIR/PID.json — per phase from the hand-out (or the fork) to the
# _exit, the clock, CPU and page faults so far — and with
# AEAT_MCP_WARM_PROFILE=1 as well, DIR/PID.prof: a cProfile of the CLI's
# run and the exit. Off (one comparison a phase) when unset; to trace a
# server's calls, pass it: --pass-env AEAT_MCP_WARM_TRACE.
_TRACE_DIR = os.environ.get("AEAT_MCP_WARM_TRACE") or None
_TRACE = []
_PROFILE = None


def _mark(phase):
    if _TRACE_DIR is not None:
        ru = resource.getrusage(resource.RUSAGE_SELF)
        _TRACE.append((phase, time.perf_counter(), ru.ru_utime + ru.ru_stime, ru.ru_minflt))


def _write_trace():
    if _TRACE_DIR is None:
        return
    _mark("end")
    t0, c0, f0 = _TRACE[0][1:]
    rows = [[p, round((t - t0) * 1000, 3), round((c - c0) * 1000, 3), f - f0] for p, t, c, f in _TRACE]
    try:  # a debugging aid never changes how the call ends
        if _PROFILE is not None:
            _PROFILE.disable()
            _PROFILE.create_stats()
            with _trace_file("%d.prof" % os.getpid(), "wb") as f:
                marshal.dump(_PROFILE.stats, f)  # what dump_stats writes
        with _trace_file("%d.json" % os.getpid(), "w") as f:
            json.dump({"argv": sys.argv[1:], "phases": rows}, f)
    except OSError:
        pass


def _trace_file(name, mode):
    """A new file in the trace directory, the user's alone: the argv it
    holds is the model's arguments (secrets never reach argv), and an
    existing file or a link there is refused, not followed or truncated."""
    fd = os.open(os.path.join(_TRACE_DIR, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    return os.fdopen(fd, mode)

_SCRIPT = _CFG["script"]
# What the server added to this interpreter's environment for it alone (an
# allocator setting the C library read at start): never the CLI's.
for _name in _CFG.get("unset") or []:
    os.environ.pop(_name, None)
# The environment the template started with: exactly a call's.
_ENV0 = dict(os.environ)
# What importing the CLI (and the warm-up) did to it (name -> value, None
# for removed), and the console script's code (None: not Python source).
# Both set once the template is ready.
_ENV_CHANGES = {}
_SCRIPT_CODE = None
_PR_SET_DUMPABLE = 4
# The random number generators the template holds (random.Random and
# numpy's), reseeded in each child: a generator made at import would
# otherwise give every call the same numbers. Set once the template is
# ready.
_RNGS = []


def _send(sock, obj):
    """One JSON line on the control socket: the ready line, or the error."""
    sock.sendall((json.dumps(obj) + "\n").encode())


# The call socket's lines, one function a kind (protocol.go reads them).


def _line_forked(pid, template, born, spare=False):
    return "P %d %d %s%s" % (pid, template, "c" if born else "f", " s" if spare else "")


def _line_exited(code, usage=None):
    return "X e %d%s" % (code, _usage_field(usage))


def _line_signaled(signum, usage=None):
    return "X s %d%s" % (signum, _usage_field(usage))


def _usage_field(usage):
    """What an exited child used, (minflt, majflt, user_us, sys_us), as the
    X line's tail; "" when it could not be read."""
    if usage is None:
        return ""
    return " r %d %d %d %d" % usage


def _line_threads(n):
    return "T %d" % n


def _line_refused(why):
    return "E %s" % why


def _ready_msg(me, threads, counted, commands, failed, mod_name, import_s, preload_s):
    """The ready line (protocol.go, readyMsg), but for the fork canary's
    verdict, which only a single-threaded template runs."""
    return {
        "ready": True,
        "pid": me,
        "threads": threads,
        "thread_count": counted,
        "open": _open_files(),
        "commands": commands,
        "modules": len(sys.modules),
        "preload_failed": failed,
        "import_ms": int(import_s * 1000),
        "preload_ms": int(preload_s * 1000),
        "files": _watched(mod_name),
        "runs": "entry" if _SCRIPT_CODE is None else "script",
    }


def _error_msg(e):
    """The line instead of the ready line: why the CLI could not be
    imported (protocol.go, readyMsg's error and trace)."""
    import traceback

    return {"error": "%s: %s" % (type(e).__name__, e), "trace": traceback.format_exc()[-4000:]}


def _send_line(sock, line):
    sock.sendall((line + "\n").encode())


def _read_request(go):
    """The call's request on the go pipe: a 4-byte big-endian length, then
    that many bytes of JSON (protocol.go, goPipeFrame)."""
    (n,) = struct.unpack(">I", _read_exact(go, 4))
    return json.loads(_read_exact(go, n))


def _entry():
    mod_name, _, attr = _CFG["entry"].partition(":")
    mod = __import__(mod_name, fromlist=["_"])
    obj = mod
    for part in attr.split("."):
        obj = getattr(obj, part)
    return mod_name, obj


def _as_command(obj):
    """The Click command behind obj: obj itself, or a Typer app's (Typer
    groups are not click.Group, and Typer 0.27 ships its own copy of Click as
    typer._click, so commands are recognised by what they do, not by class)."""
    typer = sys.modules.get("typer")
    if typer is not None and isinstance(obj, getattr(typer, "Typer", ())):
        return typer.main.get_command(obj)
    if not isinstance(obj, type) and hasattr(obj, "make_context") and hasattr(obj, "context_class"):
        return obj
    return None


def _walk(cmd, ctx):
    n = 1
    if hasattr(cmd, "list_commands") and hasattr(cmd, "get_command"):
        for name in cmd.list_commands(ctx):
            try:
                sub = cmd.get_command(ctx, name)
                if sub is None:
                    continue
                subctx = sub.context_class(sub, parent=ctx, info_name=name, resilient_parsing=True)
                n += _walk(sub, subctx)
            except Exception:
                pass  # a command that cannot load now fails the same way in the call
    return n


def _preload(mod_name, obj):
    """Walks the command tree: the entry itself when it is a command, else
    every command or Typer app its module holds (a console script's main()
    usually just calls one)."""
    if _CFG.get("preload") != "click":
        return 0
    roots = [obj]
    if _as_command(obj) is None:
        roots = list(vars(sys.modules[mod_name]).values())
    n = 0
    seen = set()
    for root in roots:
        cmd = _as_command(root)
        if cmd is None or id(cmd) in seen:
            continue
        seen.add(id(cmd))
        try:
            ctx = cmd.context_class(cmd, info_name=os.path.basename(_SCRIPT), resilient_parsing=True)
            n += _walk(cmd, ctx)
        except Exception:
            pass  # a preload is an optimisation: the call loads what it needs
    return n


def _call(obj):
    """What the console script does: sys.exit(main())."""
    sys.exit(obj())


def _script_code():
    """The console script compiled, to run as __main__ in each call as a cold
    call runs it (its top-level lines too: aws's fixes LC_CTYPE there). None
    when it is not Python source: the entry point is called instead."""
    try:
        with open(_SCRIPT, "rb") as f:
            return compile(f.read(), _SCRIPT, "exec", dont_inherit=True)
    except Exception:
        return None


def _run_main():
    """Runs the CLI as its console script does: the script's code as
    __main__ (its imports are the template's), else sys.exit(entry())."""
    if _SCRIPT_CODE is None:
        _call(_entry()[1])
        return
    import types
    from importlib.machinery import SourceFileLoader

    main = types.ModuleType("__main__")
    main.__file__ = _SCRIPT
    main.__cached__ = None
    main.__loader__ = SourceFileLoader("__main__", _SCRIPT)
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    exec(_SCRIPT_CODE, main.__dict__)


def _warmup(obj):
    for argv in _CFG.get("warmup") or []:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
        sys.argv = [_SCRIPT] + list(argv)
        try:
            _call(obj)
        except BaseException:
            pass
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    sys.argv = [_SCRIPT]


# The operating system the server runs on, as Go names it ("linux",
# "darwin"): it picks how threads are counted and what the fork canary
# touches. Tests run the darwin branches on Linux.
_OS = _CFG.get("os") or ("darwin" if sys.platform == "darwin" else "linux")


def _threads():
    """How many threads the template has, and how that was found. Forking
    a threaded process is unsafe: a lock another thread held stays locked
    in the child. On Linux /proc/self/task lists every thread, native ones
    included. On macOS pthread_is_threaded_np() says whether the process
    has ever had a second thread — the criterion of Apple's Objective-C
    runtime, which crashes a child forked from one that did (CoreFoundation
    and libdispatch start threads of their own, which Python's count never
    sees). Where it cannot be asked, the template counts as threaded."""
    if _OS == "darwin":
        try:
            import ctypes

            threaded = ctypes.CDLL(None).pthread_is_threaded_np()
            return (2 if threaded else 1), "pthread_is_threaded_np"
        except Exception:
            if sys.platform == "darwin":
                return 2, "pthread_is_threaded_np (not found: counted as threaded)"
            # macOS's policies tested on another system: count its way.
    try:
        return len(os.listdir("/proc/self/task")), "/proc/self/task"
    except OSError:
        import threading

        return threading.active_count(), "threading.active_count"


def _fds():
    """The open descriptors, less the listing's own (closed by the time
    they are checked)."""
    try:
        listed = sorted(int(n) for n in os.listdir("/proc/self/fd" if _OS != "darwin" else "/dev/fd"))
    except OSError:
        return []
    out = []
    for fd in listed:
        try:
            os.fstat(fd)
        except OSError:
            continue
        out.append(fd)
    return out


# The descriptors the template started with: its own (stdin, the log pipe
# on stdout and stderr, the control socket) and any the server itself
# inherited without close-on-exec, which every cold call inherits too.
_FDS0 = set(_fds())


def _open_files():
    """The descriptors the CLI opened in the template (at import, preload,
    warm-up) and holds: each one a child would share with the template and
    with every other call — a file opened at import shares its offset, so
    one call's reads move another's. Only a file opened for appending alone
    is let through (a log: every write goes to its end, whatever the
    offset)."""
    import fcntl
    import stat

    out = []
    for fd in _fds():
        if fd in _FDS0:
            continue
        try:
            st = os.fstat(fd)
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and flags & os.O_APPEND and flags & os.O_ACCMODE == os.O_WRONLY:
            continue
        out.append({"fd": fd, "what": _describe(fd, st)})
    return out


def _describe(fd, st):
    import stat

    try:
        return os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        pass
    getpath = getattr(__import__("fcntl"), "F_GETPATH", None)
    if getpath is not None:
        try:
            import fcntl

            return fcntl.fcntl(fd, getpath, bytes(1024)).split(b"\0", 1)[0].decode(errors="replace")
        except OSError:
            pass
    for test, kind in ((stat.S_ISSOCK, "a socket"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISREG, "a file"), (stat.S_ISDIR, "a directory")):
        if test(st.st_mode):
            return kind
    return "a device"


def _rngs():
    """Every random number generator the template holds: random.Random
    instances (the module's own is reseeded by random itself at fork, one
    made at import is not) and numpy's, if numpy is loaded."""
    kinds = []
    rnd = sys.modules.get("random")
    if rnd is not None:
        kinds.append(rnd.Random)
    nprandom = sys.modules.get("numpy.random")
    if nprandom is not None:
        kinds += [k for k in (getattr(nprandom, "RandomState", None), getattr(nprandom, "Generator", None)) if k]
    if not kinds:
        return []
    kinds = tuple(kinds)
    return [o for o in gc.get_objects() if isinstance(o, kinds)]


def _reseed():
    """What multiprocessing does for a forked child, for every generator
    the template holds: a fresh seed from the OS, as a cold call's
    interpreter gets."""
    for r in _RNGS:
        try:
            if hasattr(r, "bit_generator"):  # numpy.random.Generator
                r.bit_generator.state = type(r.bit_generator)().state
            else:
                r.seed()
        except Exception:
            pass


def _canary(steps, seconds):
    """Forks a child that touches what Apple's runtimes make unsafe after a
    fork (the system proxy settings, the keychain), as a call would: it must
    exit 0. On macOS a child that touches Objective-C, CoreFoundation or
    libdispatch after its parent did is killed by the runtime (CPython
    bpo-33725, gh-105912): a template whose children would crash there is
    never served from. Returns "" or why the canary failed, and whether it
    only did not end in time (a loaded machine: not a verdict)."""
    if not steps:
        return "", False
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            if "proxies" in steps:
                import urllib.request

                urllib.request.getproxies()
            if "keyring" in steps:
                try:
                    import keyring
                except ImportError:
                    keyring = None
                if keyring is not None:
                    keyring.get_keyring().get_password("aeat-mcp fork canary", "canary")
        except BaseException as e:
            sys.stderr.write("fork canary: %s: %s\n" % (type(e).__name__, e))
            code = 3
        try:
            sys.stderr.flush()
        finally:
            os._exit(code)
    # What counts is the time this process ran, not the wall clock: while
    # the template starts, the server stops it for the length of a call
    # (SIGSTOP, its preparation yields to calls: yield.go), and a gap
    # longer than a second between two looks is that, not the canary's.
    waited, last = 0.0, time.monotonic()
    while True:
        got, status = os.waitpid(pid, os.WNOHANG)
        if got:
            break
        now = time.monotonic()
        waited += min(now - last, 1.0)
        last = now
        if waited > seconds:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "the fork canary (%s) did not end within %g s" % (", ".join(steps), seconds), True
        time.sleep(0.005)
    if os.WIFSIGNALED(status):
        return "the fork canary (%s) was killed by signal %d" % (", ".join(steps), os.WTERMSIG(status)), False
    if os.WEXITSTATUS(status) != 0:
        return "the fork canary (%s) exited %d" % (", ".join(steps), os.WEXITSTATUS(status)), False
    return "", False


def _preload_modules():
    """Imports cli.warm.preload's modules in order, then calls its
    "module:function" set-up hooks in order — once every module is
    imported, so that set-up sees all of them (SQLAlchemy's mapper
    configuration, the models of every verb) — output to the log. A preload
    is an optimisation: one that fails is logged, and the call loads it
    itself."""
    failed = []
    names = _CFG.get("modules") or []
    for name in [n for n in names if ":" not in n] + [n for n in names if ":" in n]:
        mod_name, _, attr = name.partition(":")
        try:
            fn = __import__(mod_name, fromlist=["_"])
            if attr:
                for part in attr.split("."):
                    fn = getattr(fn, part)
                fn()
        except BaseException as e:
            failed.append(name)
            sys.stderr.write("preload %s: %s: %s\n" % (name, type(e).__name__, e))
    sys.stdout.flush()
    sys.stderr.flush()
    return failed


# A CLI's plugins — keyring's backends, a Click app's plugin commands — are
# found through importlib.metadata.entry_points, which reads every
# installed distribution's entry_points.txt on each call: 9–10 ms of each
# real aeat call that opens its store, 194 distributions on a Debian
# system (BENCHMARKS.md "What a fresh interpreter pays again"). The
# template reads them once; a child answers from that reading while the
# directories on sys.path are as they were — each one's modification time,
# which an install or a removal changes, as importlib keeps its own cache of
# a directory's listing — and reads them again otherwise. Only where the
# CLI's preload imported importlib.metadata (or its backport): a CLI that
# finds no plugins pays nothing for this.
_METADATA_MODULES = ("importlib.metadata", "importlib_metadata")


def _path_stamp():
    """What the distributions found on sys.path depend on: each entry and
    its modification time (None: not there)."""
    out = []
    for p in sys.path:
        try:
            out.append((p, os.stat(p or ".").st_mtime_ns))
        except OSError:
            out.append((p, None))
    return tuple(out)


def _keep_entry_points():
    """Reads the entry points once, for every metadata module loaded, and
    has its entry_points answer from them while _path_stamp holds."""
    for name in _METADATA_MODULES:
        md = sys.modules.get(name)
        read = getattr(md, "entry_points", None)
        if read is None:
            continue
        stamp = _path_stamp()  # before the reading: a change during it shows
        try:
            every = read()
        except Exception:
            continue
        if not hasattr(every, "select"):
            continue  # Python 3.9's dict of groups: read as before

        @functools.wraps(read)
        def entry_points(_read=read, _every=every, _stamp=stamp, **params):
            if not params or _path_stamp() != _stamp:
                return _read(**params)
            return _every.select(**params)

        md.entry_points = entry_points


def _watched(mod_name):
    """The files whose change means the CLI was upgraded: the script and
    every loaded module of the entry's top-level package."""
    top = mod_name.split(".")[0]
    files = [_SCRIPT]
    for name, mod in list(sys.modules.items()):
        if name == top or name.startswith(top + "."):
            f = getattr(mod, "__file__", None)
            if f:
                files.append(f)
    pkg = sys.modules.get(top)
    if pkg is not None and getattr(pkg, "__file__", None):
        files.append(os.path.dirname(pkg.__file__))
    return files[:5000]


_libc = None


def _load_libc():
    """libc, loaded once in the template (not per child) for prctl,
    clone3 and waitid."""
    global _libc, _clone3, _waitid
    if sys.platform.startswith("linux") and _libc is None:
        import ctypes

        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        _clone3 = _clone3_setup(ctypes)
        _waitid = _waitid_setup(ctypes)


# clone3 straight into the call's cgroup (Linux ≥ 5.7): the child is born in
# the call's tree, and the server does not move it there — a move waits for
# an RCU grace period, milliseconds on an idle machine. None where it cannot
# be used; then os.fork, and the server moves the child.
_clone3 = None
_SYS_CLONE3 = 435  # the same number on every 64-bit architecture listed below
_CLONE_INTO_CGROUP = 0x200000000
_CLONE3_MACHINES = ("x86_64", "aarch64", "arm64", "riscv64", "ppc64le", "s390x")


def _clone3_setup(ctypes):
    """What _fork needs to call clone3 as os.fork calls fork: Python's own
    before/after-fork work around it (PyOS_BeforeFork, PyOS_AfterFork_*:
    the import lock, os.register_at_fork hooks such as random's reseed,
    threading's state), with the GIL held (PyDLL), as os.fork holds it. Only
    with glibc 2.25 or later, whose getpid, gettid and raise ask the kernel
    (no cached pid or tid to go stale), on a machine listed above."""
    try:
        name, _, version = os.confstr("CS_GNU_LIBC_VERSION").partition(" ")
        if name != "glibc" or tuple(int(x) for x in version.split(".")[:2]) < (2, 25):
            return None
        if os.uname().machine not in _CLONE3_MACHINES:
            return None
        lib = ctypes.PyDLL(None, use_errno=True)
        syscall = lib.syscall
        syscall.restype = ctypes.c_long
        syscall.argtypes = [ctypes.c_long, ctypes.c_void_p, ctypes.c_size_t]
        hooks = []
        for name in ("PyOS_BeforeFork", "PyOS_AfterFork_Parent", "PyOS_AfterFork_Child"):
            fn = getattr(ctypes.pythonapi, name)
            fn.restype, fn.argtypes = None, []
            hooks.append(fn)
        args = (ctypes.c_uint64 * 11)()  # struct clone_args, CLONE_ARGS_SIZE_VER2
        return ctypes, syscall, hooks, args
    except Exception:
        return None


# waitid(2) as the kernel has it, with a fifth argument glibc's wrapper
# lacks: a struct rusage, which the kernel fills for a zombie left a zombie
# (WNOWAIT) with what it used — the fault and CPU counts of a call (the X
# line's "r" tail). None where it cannot be used; then os.waitid, and no
# counts. The numbers of the machines it was checked on.
_waitid = None
_SYS_WAITID = {"x86_64": 247, "aarch64": 95, "arm64": 95}
_P_PID = 1


def _waitid_setup(ctypes):
    nr = _SYS_WAITID.get(os.uname().machine)
    if nr is None or not hasattr(os, "WNOWAIT"):
        return None
    try:
        syscall = ctypes.CDLL(None, use_errno=True).syscall
        syscall.restype = ctypes.c_long
        syscall.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
        # siginfo_t is 128 bytes; si_code at 8, si_pid at 16, si_status at
        # 24 (for SIGCHLD). struct rusage: two timevals, then 14 longs
        # (ru_minflt the 5th, ru_majflt the 6th).
        return ctypes, syscall, nr, (ctypes.c_int * 32)(), (ctypes.c_long * 18)()
    except Exception:
        return None


def _waitid_usage(pid, base=None):
    """_status_line by the raw waitid, with what the zombie used (less base);
    None when the call failed other than for a child already gone (then
    os.waitid)."""
    ctypes, syscall, nr, info, ru = _waitid
    for i in range(len(info)):
        info[i] = 0
    r = syscall(nr, _P_PID, pid, ctypes.addressof(info), os.WEXITED | os.WNOHANG | os.WNOWAIT, ctypes.addressof(ru))
    if r < 0:
        if ctypes.get_errno() == errno.ECHILD:
            return _line_signaled(signal.SIGKILL), True
        return None
    if info[4] == 0:  # si_pid: not exited yet
        return None, False
    usage = (ru[8], ru[9], ru[0] * 1000000 + ru[1], ru[2] * 1000000 + ru[3])
    if base is not None:
        usage = tuple(max(0, u - b) for u, b in zip(usage, base))
    if info[2] == os.CLD_EXITED:
        return _line_exited(info[6], usage), False
    return _line_signaled(info[6], usage), False


def _fork(cgroup, berth=False):
    """Forks the call's child: into cgroup (a directory descriptor) by
    clone3 where it can, else with os.fork. It returns the pid (0 in the
    child) and whether the child was born in the cgroup. A berth (a spare's
    cgroup, _Spares.berth) that refuses it says nothing of the calls'."""
    global _clone3
    if cgroup is None or _clone3 is None:
        return os.fork(), False
    ctypes, syscall, (before, parent, child), args = _clone3
    for i in range(len(args)):
        args[i] = 0
    args[0] = _CLONE_INTO_CGROUP
    args[4] = signal.SIGCHLD  # exit_signal
    args[10] = cgroup
    before()
    pid = syscall(_SYS_CLONE3, ctypes.addressof(args), ctypes.sizeof(args))
    if pid == 0:
        child()
        return 0, True
    err = ctypes.get_errno()
    parent()
    if pid > 0:
        return pid, True
    if berth:
        return os.fork(), False
    # Refused here (seccomp, an old kernel, a cgroup that cannot take it):
    # fork from now on, and the server moves each child.
    _clone3 = None
    sys.stderr.write("clone3 into the call's cgroup refused (%s): forking instead\n" % os.strerror(err))
    sys.stderr.flush()
    return os.fork(), False


# The spare (Linux): one child forked ahead of the next call. A warm call's
# child pays on the call's path for its fork (the copy of the template's
# page tables) and for a copy-on-write fault on each page of the template
# it writes — CPython writes reference counts into every object it uses, so
# a call copies thousands of the template's pages (the real aeat's profile
# list: 3,299 faults, at 16–20 µs each on a VM). A spare pays both while no
# call runs: forked once the template is idle, it writes each page earlier
# calls' children wrote (learnt from them: _report_pages, _learn) once —
# MADV_POPULATE_WRITE copies it as a write would, changing nothing — then
# waits. It holds nothing of a call until it is handed one: the call's
# descriptors on its own socket ("C" with stdin, stdout, stderr, the go pipe,
# the call socket[, a pipe to report its pages on]), exactly what a freshly
# forked child gets; the request comes on the go pipe once it is in the
# call's cgroup: born there when the server sent a berth for it (the
# call's cgroup made ahead, _Spares.berth), else moved there by the server
# at the call ("f" either way). Until then it
# dies with the template (PR_SET_PDEATHSIG), and the template kills it when
# it ends. _CFG["spare"] is None where there is none (not Linux).

_SPARE = _CFG.get("spare")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_PR_SET_PDEATHSIG = 1
_MADV_POPULATE_WRITE = 23  # Linux 5.14
# Pages a spare copies between two looks at its socket (a call waits for
# at most that many faults), and how long a spare handed a call while it
# copies is given to stop and answer before the call is forked instead.
_PREFAULT_STEP = 256
_SPARE_ANSWER = 5.0
# Pages (numbers) of the template's writable private mappings that calls'
# children wrote, at most _SPARE["max_pages"]: what every spare pre-faults.
_LEARNT = set()
# In a child the template learns from: the write end of a pipe to it, and
# its page faults when it was handed the call.
_REPORT = None
_FAULTS0 = 0
# A pagemap entry's top byte (little-endian) -> 1 where bit 56 is set:
# PM_MMAP_EXCLUSIVE, the page is mapped by this process alone — copied
# from the template, or first touched, by the child.
_EXCLUSIVE = bytes(b & 1 for b in range(256))


def _writable_ranges():
    """This process's readable and writable private mappings, as (first
    page, end page) pairs in address order: where a fork shares pages
    copy-on-write."""
    out = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 2)
                perms = parts[1]
                if perms[0] != "r" or perms[1] != "w" or perms[3] != "p":
                    continue
                lo, _, hi = parts[0].partition("-")
                out.append((int(lo, 16) // _PAGE, int(hi, 16) // _PAGE))
    except (OSError, ValueError, IndexError):
        return []
    return out


def _report_pages(fd, limit=1 << 16):
    """In a child the template learns from, once the call's output is
    flushed: the pages it maps alone in its writable private mappings, as
    "FIRST COUNT" lines (hex page numbers) on fd, at most limit runs."""
    import re

    lines = []
    try:
        if sys.byteorder == "little":
            pm = os.open("/proc/self/pagemap", os.O_RDONLY)
            try:
                for lo, hi in _writable_ranges():
                    for start in range(lo, hi, 1 << 17):
                        n = min(hi, start + (1 << 17)) - start
                        flags = os.pread(pm, n * 8, start * 8)[7::8].translate(_EXCLUSIVE)
                        for m in re.finditer(b"\x01+", flags):
                            lines.append("%x %x\n" % (start + m.start(), m.end() - m.start()))
                        if len(lines) >= limit:
                            break
            finally:
                os.close(pm)
        data = "".join(lines[:limit]).encode()
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass
    os.close(fd)


def _learn(data):
    """Adds what a child reported (_report_pages) to _LEARNT: only pages of
    the template's own writable private mappings (what the child made
    itself no spare can copy), up to the bound."""
    import bisect

    cap = _SPARE["max_pages"]
    ranges = _writable_ranges()
    firsts = [lo for lo, _ in ranges]
    for line in data.split(b"\n"):
        parts = line.split()
        if len(parts) != 2 or len(_LEARNT) >= cap:
            continue
        try:
            lo, hi = int(parts[0], 16), int(parts[0], 16) + int(parts[1], 16)
        except ValueError:
            continue
        i = max(0, bisect.bisect_right(firsts, lo) - 1)
        while i < len(ranges) and ranges[i][0] < hi and len(_LEARNT) < cap:
            first = max(lo, ranges[i][0])
            _LEARNT.update(range(first, min(hi, ranges[i][1], first + cap - len(_LEARNT))))
            i += 1


def _prefault(sock):
    """In a spare: copies each learnt page now (a write fault per run of
    pages, no byte changed), so that the call does not — only where it is
    still in a readable and writable private mapping (the template may have
    unmapped it since) — then reads a byte of each (_touch): all the copies
    first, as a copy saves a call more than a read does. It stops when a
    call comes (sock readable): the call pays for the rest."""
    if not _LEARNT or _libc is None:
        return
    poll = select.poll()
    poll.register(sock, select.POLLIN)
    import ctypes

    runs = list(_learnt_runs())
    madvise = _libc.madvise
    for step in (lambda at, n: madvise(at * _PAGE, n * _PAGE, _MADV_POPULATE_WRITE), lambda at, n: _touch(ctypes, at, n)):
        for at, n in runs:
            if poll.poll(0):
                return
            step(at, n)


def _learnt_runs():
    """The learnt pages still in a readable and writable private mapping,
    as (first page, count) runs of at most _PREFAULT_STEP pages, in address
    order."""
    import bisect

    ranges = _writable_ranges()
    firsts = [lo for lo, _ in ranges]
    pages = sorted(_LEARNT)
    start = prev = pages[0]
    for p in pages[1:] + [None]:
        if p is not None and p == prev + 1:
            prev = p
            continue
        i = max(0, bisect.bisect_right(firsts, start) - 1)
        while i < len(ranges) and ranges[i][0] <= prev:
            lo, hi = max(start, ranges[i][0]), min(prev + 1, ranges[i][1])
            for at in range(lo, hi, _PREFAULT_STEP):
                yield at, min(hi, at + _PREFAULT_STEP) - at
            i += 1
        if p is not None:
            start = prev = p


def _touch(ctypes, at, n):
    """Reads one byte of each of n pages from page at, by this process's own
    loads. MADV_POPULATE_WRITE copies a page in the kernel; under a
    hypervisor that shadows page tables (this project's 2-core VM) the
    process's first load of each page still traps to it (4–7.4 CPU-µs a page,
    counted as user CPU, no page fault the kernel sees): the real aeat's
    profile list spent 56 CPU-ms in the CLI instead of 27–34 with its
    2,700 learnt pages read here first (BENCHMARKS.md, "Where a warm
    call's CPU goes"). Elsewhere a load costs a TLB fill: ~0.3 ms for them."""
    buf = (ctypes.c_char * (n * _PAGE)).from_address(at * _PAGE)
    bytes(memoryview(buf).cast("B")[::_PAGE])


class _Spares:
    """The template's spare, and what it learns from calls' children."""

    def __init__(self):
        self.on = bool(_SPARE) and _libc is not None and hasattr(_libc, "madvise")
        self.pid = 0  # the spare's, 0 when there is none
        self.sock = None  # the template's end of its socket
        self.base = None  # what it had used once ready: (minflt, majflt, user_us, sys_us)
        self.buf = b""
        self.failed = 0  # spares in a row that died before they were handed a call
        self.calls = 0
        self.learning = {}  # read end of a reporting child's pipe -> what it sent
        self.learnt = 0  # how many pages were learnt when the spare was forked
        # The cgroup directory the next spare is forked into (a berth: the
        # tree of the call it will be handed, made by the server before that
        # call), or None: the server moves the spare at the call. Each fork
        # request replaces it (set_berth).
        self.berth = None

    def set_berth(self, fd):
        """Takes the berth a fork request brought (None: none), closing
        the one it replaces: no spare is forked into that one again."""
        if self.berth is not None:
            os.close(self.berth)
        self.berth = fd

    def held(self):
        """The descriptors a call's child must close besides fds()."""
        return [self.berth] if self.berth is not None else []

    def fds(self):
        """What the template's loop waits on for its spares."""
        return ([self.sock.fileno()] if self.sock is not None else []) + list(self.learning)

    def want(self):
        """Whether to fork a spare now: whenever there is none — at once
        when the last one was handed a call, while that call runs, so that
        a call right after it finds the pages copied (a spare forked only
        once the template was idle again had not yet copied them: ~200 ms
        for the real aeat, and the call paid 3,000 faults). The copying
        runs beside the call on another CPU; it makes no call wait."""
        return self.on and self.sock is None

    def fork(self, me, drop):
        """Forks the spare. In the template it returns None; in the spare,
        the _Job it is handed (or it exits)."""
        if _threads()[0] > 1:
            return None
        ours, theirs = socket.socketpair()
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()
        try:
            pid, born = _fork(self.berth, berth=True)
        except OSError:
            gc.unfreeze()
            ours.close()
            theirs.close()
            self.on = False
            return None
        if pid == 0:
            os.close(ours.detach())
            for fd in self.learning:  # a call's child may run while it is forked
                os.close(fd)
            self.learning = {}
            if self.berth is not None:
                os.close(self.berth)
                self.berth = None
            return _spare_wait(theirs, me, drop, born)
        gc.unfreeze()
        theirs.close()
        self.pid, self.sock, self.base, self.buf = pid, ours, None, b""
        self.learnt = len(_LEARNT)
        return None

    def readable(self, fd):
        """Handles fd if it is the spare's or a learning pipe: True if it was."""
        if self.sock is not None and fd == self.sock.fileno():
            try:
                data = self.sock.recv(256)
            except OSError:
                data = b""
            if not data:  # it died: never used
                self.drop()
                self.failed += 1
                if self.failed >= 3:
                    self.on = False
                    sys.stderr.write("three spares in a row died before a call: no more spares\n")
                    sys.stderr.flush()
                return True
            self._ready(data)
            return True
        if fd in self.learning:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if data and len(self.learning[fd]) < (1 << 22):
                self.learning[fd] += data
                return True
            if not data:
                _learn(bytes(self.learning.pop(fd)))
                os.close(fd)
                if len(_LEARNT) > self.learnt:
                    # The spare was forked before these pages were learnt:
                    # one that copies them replaces it.
                    self.drop()
            return True
        return False

    def take(self, sock, fds):
        """Hands the call (its socket, and the descriptors the server sent)
        to the spare: returns (pid, base), or None (no spare; then the call
        is forked). A spare still copying pages stops at its next run and
        says what it used (its R line), which is waited for here — a few
        milliseconds; one that does not answer in time is replaced."""
        if self.sock is None:
            return None
        report = self.report_pipe()
        passed = fds[:4] + [sock.fileno()] + ([report] if report is not None else [])
        sent = False
        try:
            socket.send_fds(self.sock, [b"C"], passed)
            sent = True
            self.sock.settimeout(_SPARE_ANSWER)
            while self.base is None and self._ready(self.sock.recv(256)):
                pass
            self.sock.settimeout(None)
        except OSError:
            pass
        if report is not None:
            os.close(report)
        if not sent or self.base is None:  # dead, or too slow: never a child of this call
            self.drop()
            return None
        got = self.pid, self.base
        self.sock.close()
        self.pid, self.sock, self.base, self.failed = 0, None, None, 0
        return got

    def report_pipe(self):
        """For a call the template learns from (the first ones, then one in
        learn_every, while the bound is not reached): the write end of a
        pipe the child reports its pages on; else None."""
        if not self.on:
            return None
        self.calls += 1
        if len(_LEARNT) >= _SPARE["max_pages"]:
            return None
        if self.calls > _SPARE["learn_first"] and self.calls % _SPARE["learn_every"]:
            return None
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.learning[r] = bytearray()
        return w

    def _ready(self, data):
        """Reads the spare's R line (what it used until then) from data;
        False at EOF."""
        if not data:
            return False
        self.buf += data
        if b"\n" in self.buf and self.base is None:
            f = self.buf.split(b"\n", 1)[0].split()
            if len(f) == 5 and f[0] == b"R":
                self.base = tuple(int(x) for x in f[1:])
        return True

    def drop(self):
        """Kills and reaps the spare, if there is one."""
        if self.sock is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.sock.close()
        self.pid, self.sock, self.base = 0, None, None


def _spare_wait(sock, template, drop, born):
    """In the spare: it dies with the template, drops the template's
    descriptors, pays what a call would (the reseed, the learnt pages), says
    it is ready with what it used so far, and waits for a call."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != template:
        os._exit(0)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    drop()
    _reseed()
    _prefault(sock)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    ready = "R %d %d %d %d\n" % (ru.ru_minflt, ru.ru_majflt, round(ru.ru_utime * 1e6), round(ru.ru_stime * 1e6))
    try:
        sock.sendall(ready.encode())
        msg, fds, _, _ = socket.recv_fds(sock, 1, 6)
    except OSError:
        os._exit(0)
    _mark("handed")
    if msg != b"C" or len(fds) not in (5, 6):
        os._exit(0)  # the template closed it
    _libc.prctl(_PR_SET_PDEATHSIG, 0, 0, 0, 0)  # a call's child outlives its template (_child_setup)
    sock.close()
    global _REPORT, _RESEEDED
    if len(fds) == 6:
        _REPORT = fds.pop()
        os.set_inheritable(_REPORT, False)  # what SCM_RIGHTS gives is inheritable: nothing the CLI starts gets it
    _RESEEDED = True
    return _child_setup(fds[:4], socket.socket(fileno=fds[4]), template, [], born, spare=True)


# Set in a spare: its generators were reseeded before it was handed a call.
_RESEEDED = False


def _dumpable(on):
    """Whether other processes of the user may open this one's descriptors
    and memory through /proc (Linux): not the template's (a call's child
    could write into the pipes to the server), as the server's are not; a
    child is as open as a cold call's process, whose exec makes it so."""
    if _libc is not None:
        _libc.prctl(_PR_SET_DUMPABLE, 1 if on else 0, 0, 0, 0)


class _Job:
    def __init__(self, req, fds):
        self.req, self.fds = req, fds


def _status_line(pid, base=None):
    """Whether pid exited, as an X line, leaving it a zombie where waitid
    allows (so its pid and group cannot be reused before the server is done).
    base is what a spare had used before it was handed the call (_Spare):
    the line reports the call's own use."""
    if _waitid is not None:
        got = _waitid_usage(pid, base)
        if got is not None:
            return got
    waitid = getattr(os, "waitid", None)
    if waitid is not None and hasattr(os, "WNOWAIT"):
        try:
            r = waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return _line_signaled(signal.SIGKILL), True
        if r is None:
            return None, False
        if r.si_code == os.CLD_EXITED:
            return _line_exited(r.si_status), False
        return _line_signaled(r.si_status), False
    try:
        got, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return _line_signaled(signal.SIGKILL), True
    if got == 0:
        return None, False
    if os.WIFEXITED(status):
        return _line_exited(os.WEXITSTATUS(status)), True
    return _line_signaled(os.WTERMSIG(status)), True


def serve():
    _load_libc()
    _dumpable(False)  # before the CLI's code runs here
    ctrl = socket.socket(fileno=_CTRL_FD)
    me = os.getpid()
    try:
        sys.argv = [_SCRIPT]
        if sys.path and sys.path[0] == "":
            # A console script has its own directory first, not ours.
            sys.path[0] = os.path.dirname(os.path.realpath(_SCRIPT))
        began = time.monotonic()
        mod_name, obj = _entry()
        imported = time.monotonic()
        commands = _preload(mod_name, obj)
        _warmup(obj)
        failed = _preload_modules()
        _keep_entry_points()
        global _ENV_CHANGES, _SCRIPT_CODE, _RNGS
        _ENV_CHANGES = {k: os.environ.get(k) for k in set(_ENV0) | set(os.environ) if os.environ.get(k) != _ENV0.get(k)}
        _SCRIPT_CODE = _script_code()
        _RNGS = _rngs()
        preloaded = time.monotonic()
        threads, counted = _threads()
        ready = _ready_msg(me, threads, counted, commands, failed, mod_name, imported - began, preloaded - imported)
        if threads == 1:
            ready["canary"], ready["canary_timed_out"] = _canary(_CFG.get("canary") or [], _CFG.get("canary_seconds") or 30)
    except BaseException as e:  # the CLI failed to import: say why, and go
        _send(ctrl, _error_msg(e))
        return None
    _load_libc()
    sys.stdout.flush()
    sys.stderr.flush()
    _send(ctrl, ready)

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    # call socket fd -> [socket, child pid or 0, status sent, reaped, what
    # the child had used when handed the call (a spare's), or None]
    calls = {}
    children = {}  # pid -> call socket fd
    spares = _Spares()

    def owned():
        return [ctrl.fileno(), wake_r, wake_w] + list(calls) + spares.fds() + spares.held()

    def drop():
        """In a spare: the template's descriptors closed — its sockets
        detached first, so none is closed again, later, under a number
        reused by then."""
        for s in [ctrl] + [c[0] for c in calls.values()]:
            os.close(s.detach())
        for fd in [wake_r, wake_w]:
            os.close(fd)

    def finish(fd):
        sock, pid, _, reaped, _ = calls.pop(fd)
        if pid:
            children.pop(pid, None)
            if not reaped:
                for target in (-pid, pid):
                    try:
                        os.kill(target, signal.SIGKILL)
                    except OSError:
                        pass
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
        sock.close()

    def start(fd, fds):
        got = _start(calls[fd][0], fds, me, owned, spares)
        if isinstance(got, _Job):  # the child, on its way to the CLI
            return got
        pid, base = got
        if pid:
            calls[fd][1], calls[fd][4] = pid, base
            children[pid] = fd
        return None

    while True:
        if spares.want():
            job = spares.fork(me, drop)
            if job is not None:  # the spare, handed a call
                return job
        try:
            readable, _, _ = select.select([ctrl.fileno(), wake_r] + list(calls) + spares.fds(), [], [])
        except InterruptedError:
            continue
        for fd in readable:
            if fd == wake_r:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                for pid, cfd in list(children.items()):
                    entry = calls[cfd]
                    if entry[2]:
                        continue
                    line, reaped = _status_line(pid, entry[4])
                    if line is None:
                        continue
                    entry[2], entry[3] = True, reaped
                    try:
                        _send_line(entry[0], line)
                    except OSError:
                        pass
            elif fd == ctrl.fileno():
                try:
                    msg, fds, _, _ = socket.recv_fds(ctrl, 1, 2)
                except OSError:
                    msg, fds = b"", []
                if not msg:
                    # The server is gone: so are its calls, and the spare.
                    for cfd in list(calls):
                        finish(cfd)
                    spares.drop()
                    return None
                # Every fork request names the next spare's berth, or none.
                spares.set_berth(fds[1] if len(fds) > 1 else None)
                for extra in fds[2:]:
                    os.close(extra)
                if fds:
                    sock = socket.socket(fileno=fds[0])
                    calls[sock.fileno()] = [sock, 0, False, False, None]
                    got = _receive(sock)
                    if got is not None:
                        job = start(sock.fileno(), got)
                        if job is not None:
                            return job
            elif spares.readable(fd):
                pass
            elif fd in calls:
                # The server wrote nothing more on a call socket: this is its
                # close, the end of the call.
                try:
                    data = calls[fd][0].recv(64)
                except OSError:
                    data = b""
                if not data:
                    finish(fd)


def _receive(sock):
    """Takes one call's descriptors: None (the server told why) when its
    child cannot be forked."""
    try:
        msg, fds, _, _ = socket.recv_fds(sock, 1, 5)
    except Exception as e:
        try:
            _send_line(sock, _line_refused("reading the request: %s" % e))
        except OSError:
            pass
        return None
    if msg != b"C" or len(fds) not in (4, 5):
        for fd in fds:
            os.close(fd)
        try:
            _send_line(sock, _line_refused("expected C with 4 or 5 descriptors"))
        except OSError:
            pass
        return None
    threads, _ = _threads()
    if threads > 1:
        for fd in fds:
            os.close(fd)
        _send_line(sock, _line_threads(threads))
        return None
    return fds


def _start(sock, fds, me, owned, spares):
    """Starts one call's child: hands the call to the spare when one is
    ready, else forks it. In the template it returns (pid, what the child
    had used before the call — a spare's — or None); in the child, the
    _Job it is to run."""
    got = spares.take(sock, fds)
    if got is not None:
        for fd in fds:
            os.close(fd)
        return got
    report = spares.report_pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    # What the template holds is frozen: the child's collections never walk
    # it (nor touch its pages), and at exit the child finalizes only what
    # the call made (see _finalize_call).
    gc.freeze()
    pid, born = _fork(fds[4] if len(fds) == 5 else None)
    if pid == 0:
        _mark("forked")
        if len(fds) == 5:
            os.close(fds.pop())  # the call's cgroup: nothing of the CLI's
        global _REPORT
        _REPORT = report
        return _child_setup(fds, sock, me, owned(), born)
    gc.unfreeze()
    for fd in fds:
        os.close(fd)
    if report is not None:
        os.close(report)
    return pid, None


def _child_setup(fds, sock, template, owned, born, spare=False):
    """In the child, before it may run the CLI: a session of its own, the
    server told, then the go pipe: the call's request, written once the
    child is in the call's tree. It does not die with the template (no
    Pdeathsig): once it runs, the call's tree holds it, and a template that
    dies — killed, or by the OOM killer — takes no call with it."""
    os.setsid()
    _dumpable(True)
    if os.getppid() != template:
        os._exit(1)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        _send_line(sock, _line_forked(os.getpid(), template, born, spare))
    except OSError:
        os._exit(1)
    _mark("told")
    mine = sock.fileno()
    for fd in owned:
        if fd != mine:
            try:
                os.close(fd)
            except OSError:
                pass
    sock.close()
    go = fds[3]
    try:
        req = _read_request(go)
    except (OSError, EOFError, ValueError):
        os._exit(0)  # never started: the server gave up on this call
    os.close(go)
    _mark("request")
    return _Job(req, fds[:3])


def _read_exact(fd, n):
    buf = b""
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            raise EOFError("go pipe closed")
        buf += chunk
    return buf


def _run_child(job):
    global _FAULTS0
    _FAULTS0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    req = job.req
    for target, fd in enumerate(job.fds):
        os.dup2(fd, target)
    for fd in job.fds:
        if fd > 2:
            os.close(fd)
    os.chdir(req["cwd"] or os.getcwd())
    env = dict(kv.split("=", 1) for kv in req["env"] if "=" in kv)
    # What importing the CLI did to its environment (awscli sets
    # AWS_DATA_PATH), as it would have done in this call — where the call
    # starts from what the template started from; where it does not, the
    # import would have seen another value, and the call's wins.
    for k, v in _ENV_CHANGES.items():
        if env.get(k) == _ENV0.get(k):
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
    os.environ.clear()
    os.environ.update(env)
    if not _RESEEDED:
        _reseed()
    import tempfile

    tempfile.tempdir = None  # a call's TMPDIR, not the template's
    sys.argv = [_SCRIPT] + list(req["argv"])
    if req.get("record"):
        global _RECORD
        _RECORD = (req["record"], set(sys.modules), time.perf_counter())
    _mark("environment")
    for hook in _CFG.get("reset") or []:
        mod_name, _, attr = hook.partition(":")
        fn = __import__(mod_name, fromlist=["_"])
        for part in attr.split("."):
            fn = getattr(fn, part)
        fn()
    _mark("reset")
    if _TRACE_DIR is not None and os.environ.get("AEAT_MCP_WARM_PROFILE") == "1":
        import cProfile

        global _PROFILE
        try:  # another profiler already on (3.12+: ValueError) never fails the call
            _PROFILE = cProfile.Profile()
            _PROFILE.enable()
        except ValueError:
            _PROFILE = None


def _exit_status(e):
    """The status the interpreter exits with for an uncaught exception e
    (Python/pythonrun.c: handle_system_exit, PyErr_Print)."""
    if isinstance(e, SystemExit):
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        try:
            sys.stderr.write(str(code) + "\n")
        except Exception:
            pass
        return 1
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == "<string>":
        tb = tb.tb_next  # the template's own frames: the traceback starts in the CLI
    try:
        sys.excepthook(type(e), e.with_traceback(tb), tb)
    except Exception:
        pass
    return 1


def _unraisable(what):
    try:
        import traceback

        sys.stderr.write("Exception ignored in: %s\n" % what)
        traceback.print_exc()
    except Exception:
        pass


def _finalize_call():
    """What the interpreter's teardown does for the objects the call made:
    each one's finalizer (__del__: a file's close, which flushes it; a
    NamedTemporaryFile's removal; a generator's close), the newest first.
    The template's objects are frozen (gc.freeze before the fork), so
    gc.get_objects() holds only the call's; they are kept referenced until
    the exit, so none is finalized twice."""
    objs = []
    for gen in (0, 1, 2):
        objs.extend(reversed(gc.get_objects(gen)))
    finalizers = {}  # type -> its __del__ or None: one lookup per type
    for o in objs:
        t = type(o)
        fin = finalizers.get(t, finalizers)
        if fin is finalizers:
            fin = finalizers[t] = getattr(t, "__del__", None)
        if fin is None or o is sys.stdout or o is sys.stderr:
            continue
        try:
            fin(o)
        except Exception:
            _unraisable(type(o).__name__)
    return objs


# Set in a call the server records (aeat-mcp warm record): where to write
# the modules the call imported that the template had not, the modules
# already loaded, and when the call began.
_RECORD = None


def _write_record():
    """Writes what the call imported that the template had not: only
    modules an import by name loads again (a spec, not made on the fly)."""
    path, before, began = _RECORD
    new = []
    for name, mod in list(sys.modules.items()):
        if name in before or name == "__main__" or getattr(mod, "__spec__", None) is None:
            continue
        new.append(name)
    try:
        with open(path, "w") as f:
            json.dump({"modules": new, "ms": (time.perf_counter() - began) * 1000}, f)
    except OSError:
        pass


def _exit(status, interrupted):
    """Ends the child as the interpreter ends a program (Py_FinalizeEx):
    non-daemon threads joined, atexit functions run, stdout and stderr
    flushed (120 when stdout cannot be), the call's own objects finalized —
    then _exit, without tearing down the template's modules and objects.
    That teardown is most of an exit's cost for a large CLI (it touches
    every object, copying each page the fork shared), and it would run the
    finalizers of what the template holds, which belong to the template."""
    _mark("cli")
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except Exception:
            _unraisable("threading._shutdown")
    _mark("threads")
    import atexit

    atexit._run_exitfuncs()
    _mark("atexit")
    if _RECORD is not None:
        _write_record()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except Exception:
            if stream is sys.stdout:
                _unraisable("sys.stdout")
            status = 120
    _mark("flush")
    keep = _finalize_call()
    _mark("finalize")
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except Exception:
            pass
    if _REPORT is not None:
        # Worth its cost (a read of the page map: ~17 ms for the real
        # aeat's 400 MiB on a VM) only when the call faulted more than
        # what that would cost it.
        if resource.getrusage(resource.RUSAGE_SELF).ru_minflt - _FAULTS0 >= _SPARE["report_over"]:
            _report_pages(_REPORT)
        else:
            os.close(_REPORT)
    _mark("report")
    _write_trace()
    if interrupted:
        # An unhandled KeyboardInterrupt ends the process by SIGINT.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    del keep
    os._exit(status)


# python -c runs this as __main__; protocol_test.go loads it under another
# name, for the encoders above alone.
if __name__ == "__main__":
    _job = serve()
    if _job is None:
        sys.exit(0)
    _run_child(_job)
    del _job
    try:
        _run_main()
    except BaseException as _e:  # SystemExit, as sys.exit(main()) raises it, or what main raised
        _exit(_exit_status(_e), isinstance(_e, KeyboardInterrupt))
    _exit(0, False)
