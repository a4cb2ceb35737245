"""Build hook: compile pbntool's hot modules with mypyc when the wheel (or an editable
install) is built.

``pbntool/dev/native_build.py`` does the work, loaded by path: the build environment has
mypy and setuptools but none of pbntool's dependencies.  An editable install keeps the
extensions beside the sources (where ``pbntool._native`` checks them against the sources at
every start); a wheel carries them and is tagged for this Python and platform.  When
compiling fails (no C compiler, no Python headers), the install goes on in pure Python and
says why; ``PBNTOOL_COMPILE=0`` skips compiling.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SKIP_ENV = "PBNTOOL_COMPILE"


class NativeBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if os.environ.get(SKIP_ENV, "1").strip() in ("0", "", "no", "false"):
            self.app.display_info(f"pbntool: {SKIP_ENV}=0, pure Python")
            return
        root = Path(self.root)
        try:
            built = _builder(root).ensure_built(root)
        except (Exception, SystemExit) as error:  # mypyc exits on a type error
            self.app.display_warning(f"pbntool: not compiled ({error!r}); pure Python")
            _builder(root).clean(root)
            return
        self.app.display_info(f"pbntool: compiled ({len(built) - 1} extension files)")
        if version == "editable":
            return  # the extensions stay beside the sources the install points at
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in built:
            build_data["force_include"][str(path)] = str(path.relative_to(root))


def _builder(root: Path) -> Any:
    spec = importlib.util.spec_from_file_location(
        "_pbntool_native_build_hook", root / "pbntool" / "dev" / "native_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
