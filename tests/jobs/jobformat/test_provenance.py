"""Each imported value says where in the file it was read (issue 28): the #SBATCH option,
the YAML key, or the first line holding its text; a value whose line is not found has no
source, and an importer's exact sources win."""

import io
import json
from types import SimpleNamespace

from jobs import jobformat
from jobs.jobformat import cli, mounts, provenance

SCRIPT = """#!/bin/bash
#SBATCH -J masks-v7
# eight nodes of four GPUs
#SBATCH --nodes=8 --time=48:00:00
#SBATCH --gres=gpu:l40s:4
#SBATCH --mem=200G
OUT=s3://northwind-masks
srun python segment.py --shard $SLURM_PROCID --output-dir $OUT/v7
"""

TASK = """name: tokenize
num_nodes: 2
resources:
  any_of:
  - accelerators: A100:8
    memory: 512+
  cpus: 32+
envs:
  BUCKET: s3://corpus-raw
file_mounts:
  /data: ${BUCKET}/2027
run: |
  python tokenize.py --nodes: 2
"""


def test_sbatch_values_point_at_their_directives():
    [result] = jobformat.import_text(SCRIPT)
    sources = result.sources
    assert sources["name"] == {"line": 2, "text": "#SBATCH -J masks-v7"}
    assert sources["request.nodes"]["line"] == 4
    assert sources["request.maximum"]["line"] == 4
    assert sources["request.accelerators.0.count"]["text"] == "#SBATCH --gres=gpu:l40s:4"
    assert sources["request.memory_per_node"]["line"] == 6
    # Expanded from $OUT: found as written.
    [destination] = [p for p in result.filled() if p.startswith("output.artifacts.0.destination")]
    assert sources[destination]["line"] == 8
    assert set(sources) <= set(result.filled())
    assert "sources" in result.as_dict()


def test_skypilot_nested_keys_and_variables():
    [result] = jobformat.import_text(TASK, "skypilot")
    sources = result.sources
    assert sources["request.nodes"]["line"] == 2
    assert sources["request.accelerators.0.type"]["text"] == "- accelerators: A100:8"
    assert sources["request.cpus_per_node"]["line"] == 7
    location = next(p for p in result.filled() if p.endswith(".location"))
    assert sources[location]["text"] == "/data: ${BUCKET}/2027"
    # The run script's `--nodes: 2` is text of a block, not a key.
    assert sources["work.command"]["line"] == 13


def test_a_value_with_no_line_gets_no_source():
    data = {"request": {"nodes": 4}, "data": {"inputs": [{"location": "s3://elsewhere"}]}}
    assert provenance.sources("#!/bin/bash\n#SBATCH --time=1:00:00\n", "sbatch", data) == {}


def test_exact_sources_win():
    data = {"request": {"nodes": 4}}
    exact = [
        SimpleNamespace(path="request.nodes", value=4, line=3, text="srun -N 4 x"),
        {"path": "request.gone", "line": 1, "text": "not filled: ignored"},
    ]
    text = "#!/bin/bash\n#SBATCH --nodes=4\nsrun -N 4 x\n"
    assert provenance.sources(text, "sbatch", data, exact=exact) == {
        "request.nodes": {"line": 3, "text": "srun -N 4 x"}
    }


def test_long_lines_are_cut():
    data = {"work": {"image": "docker:img"}}
    text = "image_id: docker:img " + "x" * 500 + "\n"
    [source] = provenance.sources(text, "skypilot", data).values()
    assert len(source["text"]) == mounts.SHOWN_CHARACTERS


def test_the_command_line_lists_each_value_with_its_line(tmp_path):
    path = tmp_path / "job.sbatch"
    path.write_text(SCRIPT)
    out = io.StringIO()
    assert cli.main(["import", str(path)], out=out) == 0
    assert "# request.nodes = 8   (line 4: #SBATCH --nodes=8 --time=48:00:00)" in out.getvalue()
    out = io.StringIO()
    cli.main(["import", str(path), "--json"], out=out)
    assert json.loads(out.getvalue())["sources"]["name"]["line"] == 2


def test_a_comment_naming_the_value_is_not_where_it_was_read():
    text = "# launch: HF_TOKEN=x sky launch\nsecrets:\n  HF_TOKEN: null\nrun: echo\n"
    data = {"work": {"credentials": ["HF_TOKEN"], "command": "echo"}}
    assert provenance.sources(text, "skypilot", data)["work.credentials"]["line"] == 3
    # A script whose first line is a comment: that comment is the command's first line.
    script = "#!/bin/bash\n#SBATCH --nodes=1\n# DEBUG\nsrun x\n"
    assert provenance.sources(script, "sbatch", {"work": {"command": "# DEBUG\nsrun x"}}) == {
        "work.command": {"line": 3, "text": "# DEBUG"}
    }


def test_a_keys_value_is_never_shown_with_the_line_it_was_read_from(tmp_path):
    script = (
        "#!/bin/bash\n#SBATCH --gres=gpu:1\nexport HF_TOKEN=hf_SECRETabc\n"
        "WANDB_API_KEY=cc08a1 python train.py --data /proj/d --hf_token hf_zz9 --max_tokens 512\n"
    )
    [result] = jobformat.import_text(script.encode())
    shown = repr(result.sources) + repr(result.notes)
    for secret in ("hf_SECRETabc", "cc08a1", "hf_zz9"):
        assert secret not in shown
    assert result.sources["work.credentials"]["text"] == "export HF_TOKEN=…"
    assert "--max_tokens 512" in result.sources["data.inputs.0.location"]["text"]
    # each value read, as the import page and `jobspec import` list them (the command too)
    assert "hf_SECRETabc" not in repr(result.read())
    path = tmp_path / "job.sbatch"
    path.write_text(script)
    out = io.StringIO()
    cli.main(["import", str(path), "--json"], out=out)
    # (the command itself is the partner's own script, kept as written)
    sources = repr(json.loads(out.getvalue())["sources"])
    assert "hf_SECRETabc" not in sources and "hf_zz9" not in sources
    # a key with no known shape whose closing quote lies past the shown part of its line
    long_line = "python t.py --data /dd " + "--epochs 3 " * 14 + '--api_key "abc123secret"\n'
    [result] = jobformat.import_text(b"#!/bin/bash\n#SBATCH --gres=gpu:1\n" + long_line.encode())
    assert "abc1" not in repr(result.sources)
    # a key given to a login command
    [result] = jobformat.import_text(
        b"#!/bin/bash\n#SBATCH --gres=gpu:1\nwandb login 0123abcd\npython t.py --data /d\n"
    )
    assert "0123abcd" not in repr(result.sources) + repr(result.read())
    # SkyPilot envs are listed in a note: a key's value is not
    task = "envs:\n  HF_TOKEN: hf_SECRETabc\n  MAX_TOKENS: 512\nrun: |\n  python t.py\n"
    [result] = jobformat.import_text(task.encode(), filename="task.yaml")
    notes = " ".join(result.notes)
    assert "hf_SECRETabc" not in notes and "HF_TOKEN=…" in notes and "MAX_TOKENS=512" in notes


def test_keys_in_yaml_urls_logins_and_token_shapes_are_hidden_wherever_a_line_is_shown():
    task = (
        "envs:\n  HF_TOKEN: hf_Abcdefghijklmnopqrstuvwx\n  MAX_TOKENS: 512\n"
        "secrets:\n  OPENAI_API_KEY: sk-proj-abcdefghijklmnopqrstuv\n"
        "setup: |\n  git clone https://oauth2:glpat-Xyz0123456789abcdefghij@gitlab.com/t/p.git\n"
        '  echo "ghp_abcdefghijklmnopqrstuvwxyz12" | docker login ghcr.io --password-stdin\n'
        "run: |\n  python train.py --data /d "
        + "--epochs 3 " * 30
        + '--hub_token "hf_Zyxwvutsrqponmlkjihgfedc"\n'
    )
    [result] = jobformat.import_text(task.encode(), filename="task.yaml")
    shown = repr(result.sources) + repr(result.read()) + repr(result.notes)
    for secret in (
        "hf_Abcdefghij",
        "sk-proj-abc",
        "glpat-Xyz",
        "ghp_abcdef",
        "hf_Zyxwvut",
        "hf_Zyx",  # (a line cut for the page is cut after its key is hidden)
    ):
        assert secret not in shown, secret
    assert "MAX_TOKENS" in shown and "512" in shown
    # a key set by a tool's own settings command; its other settings stay
    from jobs.jobformat.mounts import masked

    assert masked("aws configure set aws_secret_access_key wJal/K7") == (
        "aws configure set aws_secret_access_key …"
    )
    assert masked("aws configure set region us-east-1") == "aws configure set region us-east-1"
    assert masked("dvc remote modify --local store secret_access_key abc").endswith("key …")
    # (review 1) a stream's passphrase and a key sent as an HTTP header; other headers stay
    assert masked("srt://cam:9000?passphrase=Zq9Secret77") == "srt://cam:9000?passphrase=…"
    assert masked('-headers "X-Api-Key: Zq9Secret77"') == '-headers "X-Api-Key: …"'
    assert masked("-H 'Content-Type: application/json'") == "-H 'Content-Type: application/json'"
    body = (
        '#!/bin/bash\n#SBATCH --time=1:00:00\nffmpeg -headers "X-Api-Key: Zq9Key88" -i '
        '"srt://cam:9000?passphrase=Zq9Secret77" -c copy /scratch/o/v.mp4\npython a.py\n'
    )
    [result] = jobformat.import_text(body.encode())
    shown = repr(result.sources) + repr(result.read()) + repr(result.notes)
    assert "Zq9Secret77" not in shown and "Zq9Key88" not in shown


def test_a_key_named_for_what_it_opens_is_a_key_even_beside_a_lookup_word():
    from jobs.jobformat.mounts import secret_name

    assert secret_name("LABEL_STUDIO_API_KEY") and secret_name("FIELD_ENCRYPTION_KEY")
    assert not secret_name("LABEL_KEY") and not secret_name("DATASET_KEY")


def test_a_database_clients_key_named_with_no_separator_is_hidden():
    from jobs.jobformat.mounts import masked, secret_name

    # (review) `PGPASSWORD=… psql -f /lake/d.sql`: the line shown as the input's source
    script = "#!/bin/bash\n#SBATCH -t 1:00:00\nPGPASSWORD=Zq9Secret77 psql -h db -f /lake/d.sql\n"
    [result] = jobformat.import_text(script.encode())
    assert "Zq9Secret77" not in repr(result.read()) + repr(result.sources) + repr(result.notes)
    for name in ("PGPASSWORD", "MYSQL_PWD", "SSHPASS", "REDISCLI_AUTH", "DBPASSWORD"):
        assert secret_name(name), name
        assert masked(f"{name}=abc123 cmd") == f"{name}=… cmd", name
    # the working directory is no key, nor is the file a password is kept in
    for line in ("PWD=/x cmd", "OLDPWD=/y", "cd $(pwd)/x", "PGPASSFILE=/home/u/.pgpass"):
        assert masked(line) == line, line
