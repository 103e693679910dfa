"""#SBATCH lines are read as sbatch reads them (the sbatch man page; src/sbatch/opt.c):
a directive starts its line, ends at an unquoted #, and none after the first command
counts. Each file is in fixtures/imports/sbatch/ with its expected facts beside it."""

from pathlib import Path

from jobs import jobformat

SBATCH = Path(__file__).parent / "fixtures" / "imports" / "sbatch"


def one(name):
    [result] = jobformat.import_text((SBATCH / name).read_bytes(), filename=name)
    return result


def test_a_comment_ends_a_directive_with_or_without_a_space_before_it():
    result = one("comment_after_directive.sbatch")
    request = result.description.request
    assert request.maximum.seconds == 10 * 3600  # --time=10:00:00#ten hours
    assert request.nodes == 1  # not the -N 9 in the comment after a tab
    assert (request.accelerators[0].type, request.accelerators[0].count) == ("v100", 2)
    assert request.cpus_per_node is None  # the -c 99 is in a comment
    assert result.description.name == "llm eval#3"  # a quoted # is not a comment


def test_indented_and_late_directives_are_not_read_and_each_is_named():
    result = one("directives_not_read.sbatch")
    request = result.description.request
    assert request.no_accelerators is True and request.accelerators is None
    assert request.nodes is None
    assert request.maximum.seconds == 3600
    unread = [n for n in result.notes if "sbatch does not read it" in n]
    assert [n.split(",")[0] for n in unread] == ["Line 9", "Line 11", "Line 12"]
    assert "indented" in unread[0] and "after the first command" in unread[1]


def test_a_heredoc_keeps_the_directives_it_writes_into_another_script():
    result = one("heredoc_child_scripts.sbatch")
    command = result.description.work.command
    assert "#SBATCH --gres=gpu:8\n#SBATCH --nodes=4\nsrun python shard.py" in command
    assert "--job-name" not in command  # this job's own directives are not the command
    assert result.description.request.no_accelerators is True


def test_time_zero_is_no_limit_not_a_zero_limit():
    result = one("time_zero.sbatch")
    assert result.description.request.maximum is None
    assert any(n.startswith("--time 0: no time limit of its own") for n in result.notes)
    [unlimited] = jobformat.import_text("#!/bin/bash\n#SBATCH --time=UNLIMITED\nrun\n")
    assert unlimited.description.request.maximum is None


def test_a_constraint_naming_a_class_of_gpu_nodes_is_not_a_gpu_model():
    request = one("constraint_gpu_class.sbatch").description.request
    assert request.node_features == ["gpu"]
    assert request.accelerators[0].type is None and request.accelerators[0].count == 4


def test_gpus_per_socket_are_gpus():
    request = one("gpus_per_socket.sbatch").description.request
    assert request.no_accelerators is None
    assert request.accelerators[0].count == 4  # 2 per socket x 2 sockets


def test_short_flags_and_the_tasks_per_node_spelling():
    result = one("short_options.sbatch")
    request = result.description.request
    assert request.nodes == 2  # -s takes no value: -N 2 is read
    assert request.accelerators[0].count == 4  # --tasks-per-node=4 x --gpus-per-task=1
    assert request.cpus_per_node == 32
    assert any(n.startswith("--begin now+1hour") for n in result.notes)


def test_gres_gpu_zero_asks_for_no_gpu():
    request = one("gres_gpu_zero.sbatch").description.request
    assert request.no_accelerators is True and request.accelerators is None


def test_alternative_features_are_not_features_every_node_has():
    result = one("constraint_alternatives.sbatch")
    request = result.description.request
    assert request.node_features == ["ib"]  # not a100 and h100 on every node
    assert [(a.type, a.count) for a in request.accelerators] == [("a100", 8), ("h100", 8)]


def test_totals_without_nodes_say_they_are_read_as_one_node():
    result = one("ntasks_without_nodes.sbatch")
    assert result.description.request.nodes is None
    assert any(
        n.startswith("--ntasks 8 with no --nodes: read as on one node") for n in result.notes
    )


def test_windows_and_classic_mac_line_ends():
    cr = one("line_ends_cr.sbatch").description
    assert (cr.name, cr.request.nodes, cr.request.accelerators[0].count) == ("cr-lines", 2, 4)
    assert cr.work.command.endswith("\n\nsrun python train.py") and "\r" not in cr.work.command
    crlf = one("line_ends_crlf_bom_tabs.sbatch").description
    assert (crlf.name, crlf.request.nodes, crlf.request.maximum.seconds) == (
        "crlf-bom",
        2,
        12 * 3600,
    )
    assert "\r" not in crlf.work.command
