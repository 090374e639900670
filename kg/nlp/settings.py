"""A pipeline named with settings over its config (a user's ``--stoplist`` and ``--types``): one string that every
process loading the pipeline reads alike (this one, the extraction workers, Dask's), so no config file is written.

The string is the config.cfg path, then the settings (``{"section.key": value}``) as JSON on a line of their own.
"""
from __future__ import annotations

import json


def with_settings(config: str, settings: dict[str, str]) -> str:
    """The pipeline of ``config`` (a config.cfg path, or one already named with settings) with ``settings`` over
    its own."""
    path, own = config_settings(config)
    merged = {**own, **settings}
    return path + ("\n" + json.dumps(merged, sort_keys=True) if merged else "")


def config_settings(config: str) -> tuple[str, dict[str, str]]:
    """The config.cfg path and the settings of a pipeline :func:`with_settings` names (none for a plain path)."""
    path, _, settings = config.partition("\n")
    return path, json.loads(settings) if settings else {}
