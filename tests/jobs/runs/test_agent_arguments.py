"""The agent's command line: a bad argument or a portal it cannot reach is one line on stderr
(never a traceback), exit 2 for what the operator typed, 1 for the portal."""

import pytest

from jobs.slurm_agent import cli


def errors(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--url", "x"], "argument --url: 'x' is not a web address"),
        (["--url", "ftp://portal.example"], "is not a web address"),
        (["--url", "http://[::1"], "is not a web address"),
        (["--url", "https://portal.example:99999"], "is not a web address"),
        (["--url", "https://portal.example", "--interval", "soon"], "argument --interval"),
        (["--url", "https://portal.example", "--interval", "0"], "above 0"),
        (["--once"], "the following arguments are required: --url"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(args, said, capsys, tmp_path):
    with pytest.raises(SystemExit) as stopped:
        cli.main([*args, "--token", "t", "--workdir", str(tmp_path), "--once"])
    assert stopped.value.code == 2
    err = errors(capsys)
    assert err.startswith("error: ") and said in err


def test_an_unreadable_token_file_or_workdir_is_one_line_and_exit_2(capsys, tmp_path):
    url = ["--url", "https://portal.example", "--once"]
    missing = tmp_path / "no-token"
    assert cli.main([*url, "--token-file", str(missing), "--workdir", str(tmp_path)]) == 2
    assert (
        errors(capsys) == f"error: cannot read --token-file {missing}: No such file or directory\n"
    )
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert cli.main([*url, "--token", "t", "--workdir", str(blocked / "w")]) == 2
    assert errors(capsys).startswith(f"error: cannot create --workdir {blocked / 'w'}: ")


def test_a_portal_that_does_not_answer_is_one_line_and_exit_1(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(cli.signal, "signal", lambda *_: None)  # keep pytest's own Ctrl-C
    args = ["--url", "http://127.0.0.1:9", "--token", "t", "--workdir", str(tmp_path), "--once"]
    assert cli.main(args) == 1
    assert errors(capsys) == (
        "error: cannot reach the portal at http://127.0.0.1:9: "
        "the portal did not answer: Connection refused\n"
    )
