"""An engine's checkout: supplied as a folder or a git directory, checked against the pin."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from peers.harness.checkout import CheckoutError, Pin, read_files, scratch

TEXT = b"function shuffle(a) { return a; }\n"


def make_pin(commit: str = "0" * 40) -> Pin:
    return Pin(
        key="sample",
        repository="someone/sample",
        commit=commit,
        env="PEERS_SAMPLE",
        files={"app.js": hashlib.sha256(TEXT).hexdigest()},
    )


def test_not_supplied_names_the_variable_and_how_to_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEERS_SAMPLE", raising=False)
    with pytest.raises(CheckoutError) as info:
        read_files(make_pin(), None)
    assert str(info.value).startswith(
        "someone/sample not supplied: clone https://github.com/someone/sample"
    )
    assert "PEERS_SAMPLE=DIR" in str(info.value)


def test_a_folder_of_the_files_is_read_and_checked(tmp_path: Path) -> None:
    (tmp_path / "app.js").write_bytes(TEXT)
    assert read_files(make_pin(), str(tmp_path)) == {"app.js": TEXT}


def test_a_changed_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "app.js").write_bytes(TEXT + b"// changed\n")
    with pytest.raises(
        CheckoutError, match=r"app\.js differs from commit 0000000 of someone/sample"
    ):
        read_files(make_pin(), str(tmp_path))


def test_a_missing_file_and_a_missing_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CheckoutError, match=r"app\.js is missing"):
        read_files(make_pin(), str(tmp_path))
    with pytest.raises(CheckoutError, match="no such file or folder"):
        read_files(make_pin(), str(tmp_path / "nowhere"))


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
            "HOME": str(cwd),
        },
    ).stdout.strip()


def test_a_git_directory_is_read_at_the_pinned_commit(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    git("init", "-q", cwd=work)
    (work / "app.js").write_bytes(TEXT)
    git("add", "app.js", cwd=work)
    git("commit", "-qm", "one", cwd=work)
    commit = git("rev-parse", "HEAD", cwd=work)
    (work / "app.js").write_bytes(b"later\n")  # the work tree moved on; the commit did not
    git("commit", "-qam", "two", cwd=work)
    bare = tmp_path / "bare.git"
    git("clone", "-q", "--bare", str(work), str(bare), cwd=tmp_path)
    assert read_files(make_pin(commit), str(bare)) == {"app.js": TEXT}
    with pytest.raises(
        CheckoutError, match="differs from commit"
    ):  # its files are another commit's
        read_files(make_pin(commit), str(work))
    assert read_files(make_pin(commit), str(work / ".git")) == {"app.js": TEXT}
    with pytest.raises(CheckoutError, match=r"does not hold app\.js at commit"):
        read_files(make_pin("1" * 40), str(bare))


def test_the_scratch_folder_is_outside_every_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PEERS_SCRATCH", str(tmp_path))
    folder = scratch(make_pin(), TEXT)
    assert folder.parent == tmp_path and folder.name.startswith("rules-ref-peers-sample-0000000-")
    assert scratch(make_pin(), TEXT) == folder  # the same inputs, the same build
    git("init", "-q", cwd=tmp_path)
    with pytest.raises(CheckoutError, match="lies inside the repository"):
        scratch(make_pin(), TEXT + b"x")
