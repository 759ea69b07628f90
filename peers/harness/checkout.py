"""An engine's files, read from the checkout the user supplies and checked against the pin.

A harness never holds an engine's code: the user supplies a checkout, either a folder holding
the engine's files (a clone or an unpacked archive) or a git directory holding the pinned
commit (a bare clone, or the ``.git`` of a clone). Every file the harness uses is checked
against the SHA-256 recorded for the pinned commit, and copied into a scratch folder outside
every repository, where it is built. A checkout that is missing, or whose files differ from
the pin, is one clear error (:class:`CheckoutError`) naming what is wrong and how to supply it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class CheckoutError(Exception):
    """The engine was not supplied, or not at the pinned commit."""


@dataclass(frozen=True)
class Pin:
    """An engine at one commit: where it comes from and the files a harness reads."""

    key: str  # the harness's name: allanh, crcowan
    repository: str  # owner/name on GitHub
    commit: str  # the full commit id
    env: str  # the environment variable that names the checkout
    files: dict[str, str]  # path in the repository -> SHA-256

    @property
    def short(self) -> str:
        return self.commit[:7]

    def how_to_supply(self) -> str:
        return (
            f"clone https://github.com/{self.repository} and check out {self.short} "
            f"(git clone https://github.com/{self.repository} DIR && "
            f"git -C DIR checkout {self.short}), then set {self.env}=DIR "
            f"(a folder of its files, or a git directory holding {self.short})"
        )


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def read_files(pin: Pin, source: str | None) -> dict[str, bytes]:
    """The pinned files from ``source`` (or the pin's environment variable), each checked."""
    source = source or os.environ.get(pin.env)
    if not source:
        raise CheckoutError(f"{pin.repository} not supplied: {pin.how_to_supply()}")
    root = Path(source)
    if not root.exists():
        raise CheckoutError(f"{pin.env}={source}: no such file or folder; {pin.how_to_supply()}")
    git_dir = root if _is_git_dir(root) else None
    if (
        git_dir is None
        and not (root / next(iter(pin.files))).exists()
        and _is_git_dir(root / ".git")
    ):
        git_dir = root / ".git"
    found: dict[str, bytes] = {}
    for path, digest in pin.files.items():
        if git_dir is not None:
            shown = subprocess.run(
                ["git", f"--git-dir={git_dir}", "show", f"{pin.commit}:{path}"],
                capture_output=True,
                check=False,
            )
            if shown.returncode != 0:
                raise CheckoutError(
                    f"{source}: the git directory does not hold {path} at commit "
                    f"{pin.short} of {pin.repository}; {pin.how_to_supply()}"
                )
            data = shown.stdout
        else:
            file = root / path
            if not file.is_file():
                raise CheckoutError(
                    f"{source}: {path} is missing (not a checkout of {pin.repository}); "
                    f"{pin.how_to_supply()}"
                )
            data = file.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            raise CheckoutError(
                f"{source}: {path} differs from commit {pin.short} of {pin.repository} "
                f"(SHA-256 {hashlib.sha256(data).hexdigest()[:12]}…, pinned {digest[:12]}…); "
                f"check out {pin.short}"
            )
        found[path] = data
    return found


def scratch(pin: Pin, *inputs: bytes) -> Path:
    """A scratch folder for this engine's build, outside every repository, keyed by its inputs."""
    digest = hashlib.sha256(b"\0".join(inputs)).hexdigest()[:16]
    base = Path(os.environ.get("PEERS_SCRATCH") or tempfile.gettempdir())
    folder = base / f"rules-ref-peers-{pin.key}-{pin.short}-{digest}"
    folder.mkdir(parents=True, exist_ok=True)
    probe = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode == 0:
        raise CheckoutError(
            f"the scratch folder {folder} lies inside the repository {probe.stdout.strip()}; "
            "set PEERS_SCRATCH to a folder outside every repository"
        )
    return folder


def extract(pin: Pin, files: dict[str, bytes], folder: Path) -> None:
    """Write the checked files under ``folder`` (their repository paths kept)."""
    for path, data in files.items():
        target = folder / "engine" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
