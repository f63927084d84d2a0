# Walks a Click (or Typer) CLI's command tree from inside, with the CLI's
# own interpreter, and writes it as a command tree (the format of the real
# aeat's commands.json) for `aeat-mcp generate --from click:PROGRAM`.
#
#   python click_walk.py OUT PROGRAM
#
# PROGRAM is the CLI's console script (or any Python file, or a zip such as
# a Windows launcher's). It is run as __main__ with Click's entry points
# patched: the first command it starts is walked instead of run, and the
# tree goes to OUT (not stdout: a CLI may print at import). Nothing of the
# CLI's own code runs past the point where it would parse its arguments.
#
# Groups are found by what they do, not by class: anything with
# list_commands and get_command is walked (Typer's groups need not be
# click.Group subclasses), and get_command resolves lazily loaded ones.
# Python 3.8+ and Click 7+.

import enum
import inspect
import json
import os
import runpy
import sys

try:
    import click
except ImportError:
    sys.stderr.write("click_walk: this Python has no click module: is it the CLI's own interpreter? (pass --python)\n")
    sys.exit(3)

MAX_DEPTH = 32


class Walked(BaseException):
    """Unwinds the CLI's own code (a BaseException: its except Exception
    clauses let it through) once the tree is written."""


def is_group(cmd):
    return callable(getattr(cmd, "list_commands", None)) and callable(getattr(cmd, "get_command", None))


def text(v):
    return v if isinstance(v, str) else None


def jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, enum.Enum):
        return jsonable(v.value)
    if isinstance(v, (list, tuple)):
        out = [jsonable(e) for e in v]
        if any(o is None and e is not None for o, e in zip(out, v)):
            return None
        return out
    return None  # a callable default, Click's UNSET sentinel, an object


def type_name(t):
    """The command tree's type names (commands.json's)."""
    checks = [
        ("Choice", "choice"), ("IntRange", "int range"), ("FloatRange", "float range"),
        ("DateTime", "datetime"), ("UUIDParameterType", "uuid"), ("File", "file"),
        ("Tuple", "tuple"), ("BoolParamType", "boolean"), ("IntParamType", "int"),
        ("FloatParamType", "float"), ("StringParamType", "str"), ("FuncParamType", "function"),
    ]
    for cls, name in checks:
        k = getattr(click.types, cls, None)
        if k is not None and isinstance(t, k):
            return name
    path = getattr(click.types, "Path", None)
    if path is not None and isinstance(t, path):
        if not getattr(t, "file_okay", True):
            return "directory"
        if not getattr(t, "dir_okay", True):
            return "file"
        return "path"
    return type(t).__name__.lower()


def choice_text(c):
    if isinstance(c, enum.Enum):
        return c.name
    return str(c)


def param_entry(p):
    is_option = isinstance(p, click.Option)
    d = {
        "name": p.name,
        "kind": "option" if is_option else "argument",
        "opts": list(p.opts),
        "secondary": list(getattr(p, "secondary_opts", []) or []),
        "type": type_name(p.type),
        "required": bool(p.required),
        "multiple": bool(getattr(p, "multiple", False)),
        "nargs": p.nargs,
        "is_flag": bool(getattr(p, "is_flag", False)),
        "count": bool(getattr(p, "count", False)),
        "hidden": bool(getattr(p, "hidden", False)),
        "prompt": bool(getattr(p, "prompt", None)),
        "hide_input": bool(getattr(p, "hide_input", False)),
        "eager": bool(getattr(p, "is_eager", False)),
        "envvar": p.envvar if isinstance(p.envvar, (str, list)) else None,
        "default": None if callable(p.default) else jsonable(p.default),
    }
    if not getattr(p, "expose_value", True):
        d["expose_value"] = False
    if hasattr(p.type, "choices"):
        d["choices"] = [choice_text(c) for c in p.type.choices]
    for end in ("min", "max"):
        if hasattr(p.type, end):
            d[end] = jsonable(getattr(p.type, end))
            d[end + "_open"] = bool(getattr(p.type, end + "_open", False))
    h = text(getattr(p, "help", None))
    if h:
        d["help"] = h
    return d


def short_help(cmd):
    try:
        return cmd.get_short_help_str(limit=300)
    except Exception:
        return text(getattr(cmd, "short_help", None)) or ""


def entry(cmd, path, group):
    d = {
        "path": path,
        "hidden": bool(getattr(cmd, "hidden", False)),
        "deprecated": bool(getattr(cmd, "deprecated", False)),
        "params": [param_entry(p) for p in getattr(cmd, "params", []) if isinstance(p, click.Parameter)],
        "help": inspect.cleandoc(text(getattr(cmd, "help", None)) or ""),
        "short_help": short_help(cmd),
    }
    if group:
        d["group"] = True
    return d


def walk(cmd, ctx, path, out, depth):
    group = is_group(cmd)
    e = entry(cmd, path, group)
    if not path:
        e["program"] = ctx.info_name
    if not group or not path or e["params"]:
        out.append(e)
    if not group or depth >= MAX_DEPTH:
        return
    for name in cmd.list_commands(ctx):
        sub = cmd.get_command(ctx, name)  # imports a lazily loaded group
        if sub is None:
            continue
        sub_ctx = click.Context(sub, info_name=name, parent=ctx, resilient_parsing=True)
        walk(sub, sub_ctx, path + [name], out, depth + 1)


def main():
    out_path, program = sys.argv[1], sys.argv[2]
    state = {"done": False}

    def intercept(self, *args, **kwargs):
        if state["done"]:
            return None
        state["done"] = True
        name = kwargs.get("prog_name") or os.path.basename(program)
        for suffix in ("-script.pyw", "-script.py", ".exe", ".py"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        ctx = click.Context(self, info_name=name, resilient_parsing=True)
        tree = []
        walk(self, ctx, [], tree, 0)
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(tree, f, ensure_ascii=False, indent=1)
        raise Walked()

    # Every way a CLI starts: cli(), cli.main(), Typer's app() (which calls
    # its click command), on whichever class of this Click defines them.
    for klass in click.Command.__mro__:
        for attr in ("main", "__call__"):
            if attr in vars(klass):
                setattr(klass, attr, intercept)
    sys.argv = [program]
    try:
        runpy.run_path(program, run_name="__main__")
    except Walked:
        sys.exit(0)
    except SystemExit as e:
        if state["done"]:
            sys.exit(0)
        sys.stderr.write("click_walk: %s exited (%s) before it started a Click command\n" % (program, e.code))
        sys.exit(4)
    sys.stderr.write("click_walk: %s ran to its end without starting a Click command: is it a Click or Typer CLI?\n" % program)
    sys.exit(4)


if __name__ == "__main__":
    main()
