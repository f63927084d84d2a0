"""Settings read from the environment once and cached, as many CLIs do
(the real aeat's cadrumo.core.config): a warm template must drop them per
call (cli.warm.reset), or a call sees the template's environment."""

import functools
import os


@functools.lru_cache(maxsize=1)
def get_settings():
    return {"greeting": os.environ.get("WARMDEMO_GREETING", "hello")}


def reset_settings_cache():
    get_settings.cache_clear()
