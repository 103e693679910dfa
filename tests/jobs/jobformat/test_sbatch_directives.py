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


def test_a_constraint_naming_a_gpu_model_gives_the_type():
    def gpus(constraint):
        result = imported("#SBATCH --gres=gpu:2", f"#SBATCH --constraint={constraint}", "./a")
        [accelerator] = result.description.request.accelerators
        unknown = [i for i in result.issues if i.code == "unknown_accelerator"]
        return accelerator.type, accelerator.count, bool(unknown)

    for model in ("a6000", "rtx_a5000", "l40s", "L4", "v100", "p100", "t4", "a10", "a30"):
        assert gpus(model) == (model, 2, False), model
    for model in ("h200", "gh200", "mi250x", "MI300X", "geforce_rtx_4090", "a100-sxm4-80gb"):
        assert gpus(model) == (model, 2, False), model
    assert gpus("nvidia_a40") == ("nvidia_a40", 2, False)  # a vendor prefix is known too
    assert gpus("tesla_v100") == ("tesla_v100", 2, False)  # and NVIDIA's Tesla brand
    # the Tesla M series (M40, M60) as well as K80 and P100 (the network's catalogue does not
    # hold these old cards: a warning, the type still as written)
    for model in ("m40", "M60", "tesla_m40"):
        assert gpus(model)[:2] == (model, 2), model
    # A class of GPU nodes, a CPU generation or a site's own name is a feature, not a model.
    for feature in ("gpu80", "skylake", "a64fx", "1v100", "ib", "m5", "m128"):
        assert gpus(feature)[0] is None, feature


def test_gpu_models_with_brand_prefixes_among_constraint_alternatives_are_choices():
    result = imported(
        "#SBATCH --gpus=1", '#SBATCH --constraint="tesla_v100|quadro_rtx_8000|a6000"', "./a"
    )
    types = [a.type for a in result.description.request.accelerators]
    assert types == ["tesla_v100", "quadro_rtx_8000", "a6000"]
    assert not [i for i in result.issues if i.code == "missing_accelerator_type"]


def test_no_requeue_is_a_note_not_an_answer_about_preemption():
    result = imported("#SBATCH --no-requeue", "#SBATCH -c 2", "./a")
    assert result.description.request.preemptible is None
    assert any(n.startswith("--no-requeue: Slurm never requeues") for n in result.notes)
    assert imported("#SBATCH --requeue", "./a").description.request.preemptible is True


def test_a_long_option_is_read_by_its_unambiguous_prefix():
    result = imported(
        "#SBATCH --err=logs/e.txt --job-n=fit --ntasks-per-n=4 --gres=gpu:1",
        "#SBATCH --mem-per=2G --ti=10 --job=x",  # all ambiguous: sbatch refuses them
        "./a",
    )
    description = result.description
    assert description.name == "fit"
    assert description.request.cpus_per_node == 4
    assert any(n.startswith("--error logs/e.txt: the job's error messages") for n in result.notes)
    assert description.request.memory_per_node is None and description.request.maximum is None
    assert any(n.startswith("--mem-per 2G: not represented") for n in result.notes)
    # An exact name comes first (--mem, not --mem-per-cpu); --cluster is --clusters.
    exact = imported("#SBATCH --mem=8G --cluster=c1", "./a")
    assert str(exact.description.request.memory_per_node) == "8 GiB"
    assert any(n.startswith("--clusters c1") for n in exact.notes)


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


def test_alternatives_in_brackets_are_the_same_on_every_node():
    # sbatch's matching OR: `[ivb|hsw]` is Ivy Bridge nodes or Haswell nodes, not a mix.
    result = imported("#SBATCH --constraint=[ivb|hsw]", "./a")
    assert result.description.request.node_features is None
    assert any("every node has the same one of them" in n for n in result.notes)
    mixed = imported("#SBATCH --constraint=ivb|hsw", "./a")
    assert any("each node has one of them" in n for n in mixed.notes)


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


def imported(*lines):
    [result] = jobformat.import_text("#!/bin/bash\n" + "\n".join(lines) + "\n")
    return result


def test_placeholders_give_no_fact_and_are_named():
    result = one("placeholders.sbatch")
    assert result.description.name is None  # not "{"
    assert result.description.request.maximum is None
    assert result.description.request.nodes == 2  # `jobname }` is not read as options
    assert any(
        n.startswith("--job-name { jobname }: a template field left unfilled") for n in result.notes
    )
    named = imported("#SBATCH --job-name=JOB_NAME", "run")
    assert named.description.name == "JOB_NAME"  # sbatch reads it as written
    braced = imported("#SBATCH --job-name={case}", "#SBATCH --time={limit}", "run")
    assert braced.description.name == "{case}"  # one word: the name sbatch gives the job
    assert braced.description.request.maximum is None  # not a time sbatch reads


def test_tasks_without_cpus_per_task_are_one_core_each():
    def cpus(*directives):
        return imported(*directives, "srun x").description.request.cpus_per_node

    assert cpus("#SBATCH --nodes=3 --ntasks-per-node=4") == 4
    assert cpus("#SBATCH --nodes=2 --ntasks=8") == 4  # spread evenly over the nodes
    assert cpus("#SBATCH --ntasks=6") == 6  # no --nodes: one node, with a note
    assert cpus("#SBATCH --nodes=4 --ntasks=6") is None  # not evenly spread: not guessed
    assert cpus("#SBATCH --nodes=2-4 --ntasks=8") is None  # depends on the nodes it gets
    assert cpus("#SBATCH --nodes=4 --ntasks=6 -c 8") is None  # 1 or 2 tasks on a node
    assert cpus("#SBATCH --nodes=2 --ntasks-per-node=2 -c 8") == 16
    # --ntasks-per-gpu: that many tasks beside each GPU of a node.
    assert cpus("#SBATCH --gpus-per-node=4 --ntasks-per-gpu=2") == 8
    assert cpus("#SBATCH --gres=gpu:2 --ntasks-per-gpu=1 -c 6") == 12
    assert cpus("#SBATCH --ntasks-per-gpu=1") is None  # no GPUs per node to count from


def test_memory_per_cpu_with_tasks_and_no_nodes():
    request = one("array_bracket_limit.sbatch").description.request
    assert (request.cpus_per_node, str(request.memory_per_node)) == (4, "8 GiB")


def test_an_array_limit_asks_for_no_nodes_and_brackets_are_a_range():
    result = one("array_bracket_limit.sbatch")
    assert result.description.work.shards == 10
    assert result.description.request.nodes is None  # %4 is shards at once, not 4 nodes
    assert any(n.startswith("--array limit %4") for n in result.notes)
    wide = imported("#SBATCH --array=0-999%64", "python x.py $SLURM_ARRAY_TASK_ID")
    assert wide.description.request.nodes is None and wide.description.work.shards == 1000


def test_commands_run_from_a_list_or_a_script_srun_starts_show_no_work_of_their_own():
    def cpu_only(*lines):
        return imported("#SBATCH -c 4", *lines).description.request.no_accelerators

    # The work is in the list (GNU parallel given no command, a line sed picks run by bash)
    # or in the script srun starts (`-N 1` is srun's node count, its value the next word).
    for step in (
        "parallel < s86.txt",
        "cat chr16.txt | parallel -P 48 {}",
        "parallel -j 8 :::: ./tasks_$SLURM_ARRAY_TASK_ID.sh",
        'cat cmds.txt | parallel -j 8 "{} > out_{%}.out"',
        'sed -n "${SLURM_ARRAY_TASK_ID}p" < runs.txt | bash',
        "srun -N 1 -n 1 -c 1 --exclusive ./run.sh --config c.yaml",
    ):
        assert cpu_only(step) is None, step
    # GNU parallel running a program of the job's own over a list of inputs is CPU work.
    assert cpu_only("parallel -j 4 gzip {} :::: files.txt") is True
    assert cpu_only('sed -n "${SLURM_ARRAY_TASK_ID}p" params.txt') is True


def test_cpu_only_is_said_only_when_nothing_points_to_gpus():
    def request(*lines):
        return imported(*lines).description.request

    assert request("#SBATCH -c 4", "python prep.py").no_accelerators is True
    # A comment is not the job using GPUs; `module load cuda` alone is not either.
    assert request("#SBATCH -c 4", "# no GPU here", "module load cuda", "./a").no_accelerators
    for uses in ("nvidia-smi", "torchrun --nproc_per_node=$NUM_GPUS x.py"):
        found = request("#SBATCH -c 4", uses)
        assert found.no_accelerators is None and found.accelerators is None, uses
    assert request("#SBATCH -p gpu-long -c 4", "./a").no_accelerators is None
    # A partition named for GPU nodes by a `-g` suffix; a container given the node's GPUs.
    assert request("#SBATCH -p tiny-g -c 4", "./a").no_accelerators is None
    assert request("#SBATCH -p big -c 4", "./a").no_accelerators is True
    for uses in ("srun apptainer exec --nv box.sif ./a", "singularity run --rocm box.sif"):
        assert request("#SBATCH -c 4", uses).no_accelerators is None, uses
    assert request("#SBATCH -c 4", "apptainer exec box.sif ./a").no_accelerators is True
    # --gres=gpu:0 says so outright, whatever the commands say.
    assert request("#SBATCH --gres=gpu:0", "nvidia-smi").no_accelerators is True
    assert request("#SBATCH --gpus=0", "nvidia-smi").no_accelerators is True
    assert request("#SBATCH --gres=nvme:0", "nvidia-smi").no_accelerators is None
    # ...also when the commands only hand over to another script (it gets no GPU either).
    assert request("#SBATCH --gres=gpu:0", "./env.sh python3 -m tools.make").no_accelerators
    assert request("#SBATCH -c 4", "./env.sh python3 -m tools.make").no_accelerators is None


def test_loading_a_gpu_build_of_a_module_is_not_gpu_work():
    def request(*lines):
        return imported(*lines).description.request

    # A cluster's only build of a library may be its GPU one: loading it sets software up.
    for load in ("module load tensorflow-gpu/py3/2.16.1", "ml pytorch-gpu/2.1"):
        assert request("#SBATCH -c 4", load, "python fetch.py").no_accelerators is True, load
    # A line that runs something after loading still counts.
    found = request("#SBATCH -c 4", "module load cuda && gpu_burn 60")
    assert found.no_accelerators is None


def test_accelerator_work_without_a_gpu_word_is_not_cpu_only():
    def cpu_only(*lines):
        return imported("#SBATCH -N 1", *lines).description.request.no_accelerators

    # A launcher with several processes per node, its count set in the script (a default too)
    # and its options over continued lines; one process per node says nothing.
    assert cpu_only("P=${P:-4}", "torchrun \\", "  --nproc-per-node=$P fit.py") is None
    assert cpu_only("accelerate launch --num_processes 2 fit.py") is None
    assert cpu_only("torchrun --nproc_per_node=1 fit.py") is True
    assert cpu_only("# torchrun \\", "--nproc_per_node 8", "python fit.py") is True
    # CUDA tensors and settings only a GPU run reads; Trainium/Inferentia's Neuron tools.
    for uses in (
        "python -c 'import torch; torch.zeros(3).cuda()'",
        "python score.py --device cuda:0",
        "export CUDA_DEVICE_MAX_CONNECTIONS=1",
        "neuron_parallel_compile python fit.py",
        "pip install torch-neuronx",
        "export NEURON_RT_NUM_CORES=32",
    ):
        assert cpu_only(uses) is None, uses
    # Plain Python and the NEURON neuroscience simulator (a CPU program) stay CPU-only (a
    # module load alone shows no work: see the test of scripts that only set up).
    for plain in ("python fit.py --epochs 3", "module load neuron\nrun", "nrniv -python cell.py"):
        assert cpu_only(plain) is True, plain


def test_a_cpu_hetjob_component_is_cpu_only_beside_a_gpu_one():
    first, second = jobformat.import_text(
        "#!/bin/bash\n#SBATCH -c 8\n#SBATCH hetjob\n#SBATCH --gres=gpu:4\n"
        "srun --het-group=1 nvidia-smi\n"
    )
    assert first.description.request.no_accelerators is True
    assert second.description.request.accelerators[0].count == 4


def test_gpus_per_node_from_a_whole_node_scripts_own_count():
    description = one("whole_node_gpus_variables.sbatch").description
    assert description.request.accelerators[0].count == 8
    assert description.work.image == "nvcr.io/nvidia/pytorch:24.05-py3"
    # Without --exclusive the node's GPUs are not the job's: no count is read.
    shared = imported("#SBATCH -N 1", "GPUS_PER_NODE=8", "torchrun --nproc_per_node=8 x.py")
    assert shared.description.request.accelerators is None


def test_script_variables_as_the_shell_sets_them():
    def checkpoint(*lines):
        found = imported("#SBATCH -N 1", *lines).description.request.checkpoint_location
        return found

    assert checkpoint('OUT="/scratch"/"$USER"', "readonly CK=${CK:-$OUT/ckpt}", "t --save $CK") == (
        "/scratch/$USER/ckpt"
    )
    assert checkpoint("CK=/a", "CK=$CK/b", "t --save-dir $CK") == "/a/b"
    # Two values, one of them under a condition: which one depends on the run.
    assert checkpoint("CK=/a", "if [ -n x ]; then CK=/b; fi", "t --save-dir $CK") == "$CK"
    # A value from a command is not expanded.
    assert checkpoint("CK=$(pwd)/c", "t --save-dir $CK") == "$CK"


def test_save_of_a_run_name_is_no_checkpoint():
    def checkpoint(*lines):
        return imported("#SBATCH -N 1", *lines).description.request.checkpoint_location

    assert checkpoint("SAVE_NAME=run-$SLURM_JOB_ID", "python t.py --save $SAVE_NAME") is None
    assert checkpoint("python t.py --save $RUN_NAME") is None
    assert checkpoint("python t.py --save /ckpt/run1") == "/ckpt/run1"
    assert checkpoint("python t.py --save-dir runs") == "runs"  # named for a directory


def test_container_images_from_directives_and_unset_variables():
    shifter = imported("#SBATCH -N 1 --image docker:ubuntu", "shifter ./a")
    assert shifter.description.work.image == "docker:ubuntu"
    # sbatch reads a directive before the script runs: the script's IMAGE is not its value.
    late = imported("#SBATCH -N 1 --container-image=$IMAGE", "IMAGE=ubuntu:24.04", "./a")
    assert late.description.work.image is None
    unset = imported("#SBATCH -N 1", 'srun --container-image="$IMAGE" ./a')
    assert unset.description.work.image is None
    assert any("Container image $IMAGE" in n for n in unset.notes)


def test_jobs_the_script_submits_are_notes_not_a_chain():
    result = one("resubmit_self.sbatch")
    assert result.description.work.shape is None
    assert any(n.startswith('sbatch --begin=now+24hour "$0"') for n in result.notes)
    chained = imported(
        "#SBATCH -N 1",
        "# sbatch this.sh (a comment)",
        "# Run with `sbatch <path_to_this_script.sh>`",
        "make all  # then sbatch the next one",
        'echo "then run sbatch again"',
        "NEXT=$(sbatch --parsable -d afterok:$SLURM_JOB_ID next.sh)",
    )
    submits = [n for n in chained.notes if n.startswith("sbatch ")]
    assert submits == [
        "sbatch --parsable -d afterok:$SLURM_JOB_ID next.sh: the job submits another job "
        "when it runs (each a job of its own; a job resubmitting itself is a new job, not a "
        "restart that carries over)."
    ]
    # the dependency kept in a variable is the variable's value
    looped = imported(
        "#SBATCH -N 1",
        "jobid=332245",
        "for((i=0; i<3; i++)); do",
        '    dependency="afterany:${jobid}"',
        "    jobid=$(sbatch --parsable --dependency=$dependency resume.sh $1)",
        "done",
    )
    submits = [n for n in looped.notes if n.startswith("sbatch ")]
    assert submits[0].startswith(
        "sbatch --parsable --dependency=afterany:${jobid} resume.sh $1: the job submits"
    )
    # a variable the script does not set is kept as written
    kept = imported("#SBATCH -N 1", 'sbatch -d "$DEP" next.sh')
    assert any(n.startswith('sbatch -d "$DEP" next.sh:') for n in kept.notes)
    # counting submissions in a log submits nothing; `sh -c "sbatch …"` is shown without its
    # closing quote, and a key written in the submission is hidden
    counted = imported("#SBATCH -N 1", 'N=$(grep -c "sbatch " submitted.log)')
    assert not [n for n in counted.notes if n.startswith("sbatch")]
    wrapped = imported(
        "#SBATCH -N 1",
        'bash -c "sbatch next.sh"; echo "x"',
        "sh -c \"sbatch --wrap='python x.py --api-key sk-abcdef1234567890'\"",
        'sh -c "sbatch --job-name="$NAME" again.sh $B"',
    )
    submits = [n for n in wrapped.notes if n.startswith("sbatch ")]
    assert submits[0].startswith("sbatch next.sh: the job submits")
    assert submits[1].startswith("sbatch --wrap='python x.py --api-key …': the job submits")
    assert submits[2].startswith('sbatch --job-name="$NAME" again.sh $B: the job submits')
    assert not any("abcdef1234567890" in n for n in wrapped.notes)


def test_an_image_from_the_environment_alone_is_kept_as_written():
    text = "#!/bin/bash\n#SBATCH -N 2\nCONTAINER=$CONTAINER\nsrun --container-image=$CONTAINER t\n"
    (result,) = jobformat.import_text(text.encode(), filename="ray.sub")
    assert result.description.work.image == "$CONTAINER"
    text = "#!/bin/bash\n#SBATCH -N 2\nsrun --container-image=nvcr.io/$TAG t\n"
    (result,) = jobformat.import_text(text.encode(), filename="t.sub")
    assert result.description.work.image is None
    assert any("set outside the script" in note for note in result.notes)


def test_a_node_list_with_no_node_count_asks_for_the_nodes_it_names():
    def nodes(*directives):
        result = imported(*directives, "srun x")
        return result.description.request.nodes, result.notes

    found, notes = nodes("#SBATCH --nodelist=gpu-[3-5]")
    assert found == 3
    assert "--nodelist gpu-[3-5]: 3 nodes named, no --nodes." in notes
    assert nodes("#SBATCH -w r[1-2]-n[01-04,07],login2")[0] == 11
    assert nodes("#SBATCH --nodelist=gpu-[3-5] --nodes=1")[0] == 1  # --nodes says
    assert nodes("#SBATCH -w hostA")[0] is None  # one host: what Slurm gives anyway
    assert nodes("#SBATCH --nodelist=./hosts.txt")[0] is None  # a file of names
    assert nodes("#SBATCH --nodelist=n[1-x]")[0] is None  # not a host list


def test_tasks_at_most_so_many_per_node_ask_for_the_nodes_that_hold_them():
    def nodes(*directives):
        result = imported(*directives, "srun -n 40 sim")
        return result.description.request.nodes, result.description.work.shape

    assert nodes("#SBATCH --ntasks=40", "#SBATCH --tasks-per-node=16") == (3, "gang")
    assert nodes("#SBATCH -n 40 --ntasks-per-node=40")[0] is None  # fits on one: unsaid
    assert nodes("#SBATCH -n 40 --ntasks-per-node=8 -N 6")[0] == 6  # --nodes says
    assert nodes("#SBATCH --ntasks=40")[0] is None  # no count per node


def test_a_terminal_notebook_or_dashboard_left_in_the_foreground_serves():
    def serves(*lines):
        return imported("#SBATCH -c 2", *lines).description.realtime.serves_requests

    assert serves('ttyd -p 7000 bash -c "python talk.py --model ./m"')
    assert serves("cd nb && python -m jupyterlab --port 9000")
    assert serves("srun tensorboard --logdir runs --bind_all")
    assert serves("docker run --rm -p 8080:8080 lab/books:1 livebook server /notebooks")
    # Installing one, or naming a folder for it, starts nothing; beside training, it ends with it.
    assert not serves("cp ttyd.bin /opt/bin/ttyd", "python train.py &", "wait")
    assert not serves("python train.py --tensorboard-dir tb")
    assert not serves("tensorboard --logdir runs &", "python train.py --log runs")


def test_nodes_handed_to_another_script_leave_its_shape_to_that_script():
    def shape(*lines):
        result = imported("#SBATCH -N 3", *lines)
        return result.description.work.shape, result.notes

    found, notes = shape("module load py", "cd run", "bash jobs/fit.sh --lr 1")
    assert found is None and any("only run jobs/fit.sh" in n for n in notes)
    # Where the nodes meet is set for it, or the file launches its work itself: one gang.
    assert shape("export MASTER_PORT=29000", "bash jobs/fit.sh")[0] == "gang"
    assert shape("srun python fit.py")[0] == "gang"
    assert shape("bash jobs/prep.sh", "srun python fit.py")[0] == "gang"
    # A script run as a program by its full path, or from the home folder, hands over too.
    found, notes = shape("conda activate .venv", "/w/train/pretrain_moe.sh --save_interval 700")
    assert found is None and any("only run /w/train/pretrain_moe.sh" in n for n in notes)
    assert shape("$HOME/jobs/fit.sh --lr 1")[0] is None
    assert shape("srun /w/train/pretrain_moe.sh")[0] == "gang"


def test_nodes_given_to_a_program_started_without_a_launcher_leave_its_shape_to_it():
    def shape(*lines):
        result = imported("#SBATCH -N 4", *lines)
        return result.description.work.shape, result.notes

    found, notes = shape("pip install tqdm", "python3 /w/launch_tasks.py --all", "echo done")
    assert found is None and any("only run /w/launch_tasks.py" in n for n in notes)
    assert shape("make build", "make run_mpi > out.txt")[0] is None
    # A launcher, a module run by name or a rendezvous set for it: one gang.
    assert shape("srun python sim.py")[0] == "gang"
    assert shape("python -m torch.distributed.run fit.py")[0] == "gang"
    assert shape("export MASTER_ADDR=$(hostname)", "python fit.py")[0] == "gang"
    # Alone on one node, plain python stays CPU work.
    plain = imported("#SBATCH -N 1", "python sim.py")
    assert plain.description.request.no_accelerators is True


def test_srun_steps_that_each_ask_for_one_node_are_not_a_gang():
    def shape(*lines):
        result = imported("#SBATCH --nodes=2", *lines)
        return result.description.work.shape, result.notes

    found, notes = shape("n=1", "srun --mpi=pmi2 --nodes=$n --ntasks-per-node=2 python -u seg.py")
    assert found is None and any("every srun step asks for one node" in n for n in notes)
    assert shape("srun -N1 -p gpu python a.py", "srun -N 1 python b.py")[0] is None
    # one step over both nodes, or a rendezvous set for the program: one gang
    assert shape("srun -N1 python a.py", "srun python b.py")[0] == "gang"
    assert shape("export MASTER_ADDR=$(hostname)", "srun -N1 python fit.py")[0] == "gang"
    # one-node steps sent to the background may join one another (a Ray head and its workers)
    assert shape("srun -N1 -w $head ray start --head &", "srun -N1 -w $w ray start &")[0] == "gang"


def test_a_short_option_written_with_an_equals_sign_keeps_it_as_sbatch_does():
    # getopt hands sbatch "=2" for `-N=2`: not a node count, so no nodes are read.
    result = imported("#SBATCH -N=2", "#SBATCH --mem=4G", "srun x")
    assert result.description.request.nodes is None
    assert any(n.startswith("--nodes =2: not a node count") for n in result.notes)


def test_commands_that_only_hand_over_to_a_script_do_not_say_cpu_only():
    for step in ("./run_eval.sh", "bash jobs/eval.sh --fold 2"):
        handed = imported("#SBATCH --ntasks=1", "module load python", step)
        assert handed.description.request.no_accelerators is None
    plain = imported("#SBATCH --ntasks=1", "python eval.py")
    assert plain.description.request.no_accelerators is True


def test_a_script_that_only_sets_its_environment_up_does_not_say_cpu_only():
    # A template's empty body or only module loads shows no work: what it runs on is unsaid.
    for body in (("", "# PUT YOUR WORK HERE"), ("module load python/3.9", "cd $HOME/x", "A=1")):
        empty = imported("#SBATCH --ntasks=1", "#SBATCH --mem=10GB", *body)
        assert empty.description.request.no_accelerators is None
    # hostname, echo or a program of its own is work, on CPUs when no GPU is asked
    for step in ("hostname", "echo done", "./task3", "X=$(hostname) ./run"):
        work = imported("#SBATCH --ntasks=1", "module load gcc", step)
        assert work.description.request.no_accelerators is True
    # --gres=gpu:0 still says it outright
    none = imported("#SBATCH --gres=gpu:0", "module load gcc")
    assert none.description.request.no_accelerators is True


def test_a_backslash_in_a_directive_keeps_the_next_character_as_sbatch_reads_it():
    result = imported(
        '#SBATCH --job-name="a\\\\b"',
        "#SBATCH --container-image=nvcr.io\\#nvidia/pytorch:24.01-py3",
        "python t.py",
    )
    assert result.description.name == "a\\b"
    # An escaped # starts no comment, and the backslash goes.
    assert result.description.work.image == "nvcr.io#nvidia/pytorch:24.01-py3"


def test_work_submitted_to_a_running_ray_cluster_does_not_say_cpu_only():
    handed = imported(
        "#SBATCH --cpus-per-task=1",
        "set -xe",
        "RAY_ADDRESS='http://10.0.0.7:8265' ray job submit --working-dir . -- bash run_rl.sh",
    )
    assert handed.description.request.no_accelerators is None


def test_dcu_and_npu_gres_are_accelerators_counted_as_gpus_are():
    request = imported("#SBATCH --gres=dcu:4", "srun python t.py").description.request
    assert (request.accelerators[0].type, request.accelerators[0].count) == ("dcu", 4)
    request = imported("#SBATCH --gres=npu:ascend910:8", "python t.py").description.request
    assert (request.accelerators[0].type, request.accelerators[0].count) == ("ascend910", 8)


def test_a_partition_named_for_cpu_nodes_says_cpu_only_even_for_a_hand_off():
    # (a word such as an environment's name `sim_gpu` gives the job no GPU on CPU nodes)
    handed = imported("#SBATCH --partition=cpu", "conda activate sim_gpu", "$@")
    assert handed.description.request.no_accelerators is True
    mixed = imported("#SBATCH --partition=cpu,gpu", "conda activate sim_gpu", "$@")
    assert mixed.description.request.no_accelerators is None


def test_a_hand_off_inside_a_container_does_not_say_cpu_only():
    # Seen through the runtime (set seen-r): the script or the image's own program decides.
    for step in (
        "shifter ./make_ntuples.sh $SLURM_ARRAY_TASK_ID 50",
        "srun -n 1 shifter --image=docker:northwind/loader:2 /bin/bash -c /usr/local/bin/loader",
        "apptainer exec --nv seg.sif bash stages/run.sh",
    ):
        handed = imported("#SBATCH --ntasks=1", "#SBATCH --image=northwind/loader:2", step)
        assert handed.description.request.no_accelerators is None, step
    # a program of the job's own in the container still runs here, on the CPU
    plain = imported("#SBATCH --ntasks=1", "apptainer exec seg.sif python prep.py")
    assert plain.description.request.no_accelerators is True
    # and a multi-node job spread by srun through the runtime stays one gang
    gang = imported("#SBATCH --nodes=4", "srun shifter ./sim.sh")
    assert gang.description.work.shape == "gang"


def test_a_clock_time_past_59_seconds_or_minutes_is_added_up_as_slurm_does():
    request = imported("#SBATCH --time=00:00:90", "sleep 1").description.request
    assert request.maximum.seconds == 90
    request = imported("#SBATCH --time=1:75:00", "sleep 1").description.request
    assert request.maximum.seconds == 2 * 3600 + 15 * 60
    typed = imported("#SBATCH --time=02:30:00", "sleep 1").description.request
    assert str(typed.maximum) == "02:30:00"  # a time on a clock stays as typed


def test_an_array_of_names_is_no_index_list_and_gives_no_shards():
    result = imported("#SBATCH --array=runA,runB,runC", "echo $SLURM_ARRAY_TASK_ID")
    assert result.description.work.shape is None
    assert any(n.startswith("--array runA,runB,runC: not an index list") for n in result.notes)
    assert imported("#SBATCH --array=1-3", "echo x").description.work.shards == 3


def test_a_wandb_sweep_agent_hands_the_work_to_the_sweep_and_says_no_cpu_only():
    for step in ('wandb agent --count 1 "$1"', "conda run -n exp wandb agent team/proj/ab12cd"):
        handed = imported(
            "#SBATCH --cpus-per-task=2", "conda activate exp", step, "conda deactivate"
        )
        assert handed.description.request.no_accelerators is None
    plain = imported("#SBATCH --cpus-per-task=2", "conda activate exp", "python sweep.py")
    assert plain.description.request.no_accelerators is True


def test_gpus_hidden_from_every_step_or_asked_for_with_a_blank():
    def request(*lines):
        return imported(*lines).description.request

    # CUDA_VISIBLE_DEVICES emptied for all the script runs: CPU work, even on a GPU partition
    hidden = request("#SBATCH -p gpu -c 4", "export CUDA_VISIBLE_DEVICES=''", "python fit.py")
    assert hidden.no_accelerators is True
    # …unless a later step is given a GPU back
    shown = request(
        "#SBATCH -p gpu -c 4", "export CUDA_VISIBLE_DEVICES=", "CUDA_VISIBLE_DEVICES=0 ./a"
    )
    assert shown.no_accelerators is None
    # GPUs asked for with a template's blank: neither GPUs nor CPU-only, and a note
    blank = imported("#SBATCH --gres=[2 A100 80g]", "python -m srv.api --port 9000")
    assert blank.description.request.no_accelerators is None
    assert blank.description.request.accelerators is None
    assert any(n.startswith("--gres [2 A100 80g]: a template field") for n in blank.notes)
    # a bracketed range in one word is Slurm's own (arrays, node lists)
    assert imported("#SBATCH --array=[0-3]", "python x.py").description.work.shards == 4


def test_a_server_used_by_a_trainer_then_a_bare_wait_is_batch_work():
    head = "#!/bin/bash\n#SBATCH --gres=gpu:4\n"
    trainer = (
        "trl vllm-serve --model $M --tensor_parallel_size 2 &\n"
        "sleep 60\n"
        "accelerate launch --num_processes 2 train_grpo.py\n"
        "wait\n"
    )
    [batch] = jobformat.import_text((head + trainer).encode())
    assert batch.description.realtime.serves_requests is not True
    # Only asking the server how it is, then waiting for it: it is left serving.
    listing = "jupyter notebook --no-browser --port 8889 &\nsleep 5\njupyter notebook list\nwait\n"
    [served] = jobformat.import_text((head + listing).encode())
    assert served.description.realtime.serves_requests is True
    # Waiting for the server's own process keeps it serving whatever ran before.
    pid = "vllm serve $M &\nPID=$!\npython warmup.py\nwait $PID\n"
    [kept] = jobformat.import_text((head + pid).encode())
    assert kept.description.realtime.serves_requests is True


def test_a_zero_memory_per_cpu_is_all_of_the_nodes_memory_not_a_size():
    text = b"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH -c 8\n#SBATCH --mem-per-cpu=0\nhostname\n"
    [result] = jobformat.import_text(text, filename="zero.sh")
    assert "memory_per_node" not in result.description.to_data()["request"]
    assert any("--mem-per-cpu 0" in note for note in result.notes)


def test_a_program_given_at_submission_is_a_hand_off_that_says_nothing_of_cpu_only():
    def request(*lines):
        return imported(*lines).description.request

    for runs in ("python $*", 'srun python3 "$@"', '"$@"', 'ARGS="$@"\necho $ARGS\npython $ARGS'):
        got = request("#SBATCH -t 1:00:00", "module load tools", runs)
        assert got.no_accelerators is None and got.accelerators is None, runs
    # a program of its own, given the arguments, is still work shown here
    assert request("#SBATCH -t 1:00:00", "python fit.py $*").no_accelerators is True


def test_a_given_program_behind_time_or_exec_is_still_a_hand_off():
    for runs in ('time "$@"', "exec $@", 'nohup srun "$@"', "time -p python $*"):
        got = imported("#SBATCH -t 1:00:00", "module load snakemake", runs).description.request
        assert got.no_accelerators is None and got.accelerators is None, runs
    # a program of its own behind `time` is work shown here
    got = imported("#SBATCH -t 1:00:00", "time python fit.py").description.request
    assert got.no_accelerators is True


def test_the_no_gpu_note_says_tpus_only_for_tpu_work():
    head = "#!/bin/bash\n#SBATCH --time=1:00:00\n"
    [gpu] = jobformat.import_text(
        (head + "torchrun --nproc_per_node=4 train.py --output_dir /out\n").encode()
    )
    [note] = [n for n in gpu.notes if n.startswith("No GPU directive")]
    assert "GPUs" in note and "TPU" not in note
    [tpu] = jobformat.import_text((head + "pip install 'jax[tpu]'\npython train.py\n").encode())
    assert any("TPUs" in n for n in tpu.notes)


def test_memory_per_cpu_with_no_core_directive_is_the_memory_of_the_one_default_core():
    def memory(*lines):
        size = imported(*lines).description.request.memory_per_node
        return size and size.text

    # no --cpus-per-task nor tasks: Slurm gives the job one core, so 64G is its memory
    assert memory("#SBATCH --nodes=1", "#SBATCH --mem-per-cpu=64G", "python merge.py") == "64 GiB"
    assert memory("#SBATCH --mem-per-cpu=15G", "python a.py") == "15 GiB"
    # cores asked for by other means are multiplied, or (unknown per node) leave it unsaid
    assert memory("#SBATCH -c 4", "#SBATCH --mem-per-cpu=2G", "python a.py") == "8 GiB"
    assert memory("#SBATCH --exclusive", "#SBATCH --mem-per-cpu=2G", "python a.py") is None
    assert memory("#SBATCH -N 4", "#SBATCH -n 6", "#SBATCH --mem-per-cpu=2G", "srun a") is None


def test_srun_starting_a_script_of_the_project_hands_it_over_and_says_nothing_of_cpu_only():
    def request(*lines):
        return imported(*lines).description.request

    for runs in ("srun run_sklearn-train_idxs.sh", "srun -n 4 bash ./fit.sh 3", "srun -c 2 x.sh"):
        got = request("#SBATCH --ntasks=1", "#SBATCH --cpus-per-task=20", runs)
        assert got.no_accelerators is None and got.accelerators is None, runs
    # a program started by srun is work shown here
    assert request("#SBATCH -c 2", "srun python fit.py").no_accelerators is True
    # nodes asked for by a CPU feature are CPU nodes, whatever the script runs
    got = request("#SBATCH -N 2", "#SBATCH --constraint=cpu", "srun driver.sh $1")
    assert got.no_accelerators is True
    assert request("#SBATCH -C cpu&ib", "srun x.sh").no_accelerators is True
    assert request("#SBATCH -C 'cpu|gpu'", "srun x.sh").no_accelerators is None


def test_chmod_before_the_script_srun_starts_is_setting_up():
    got = imported(
        "#SBATCH --cpus-per-task=16",
        "chmod +x run_sub-16.sh",
        "srun ./run_sub-16.sh",
    ).description.request
    assert got.no_accelerators is None and got.accelerators is None


def test_a_generic_resource_for_the_nodes_own_disk_is_scratch():
    def scratch(*lines):
        size = imported(*lines).description.data.scratch
        return size and size.text

    got = imported("#SBATCH -c 2", "#SBATCH --gpus-per-node=1", "#SBATCH --gres=tmpspace:100G")
    assert got.description.data.scratch.text == "100 GiB"
    assert got.description.request.accelerators[0].count == 1
    assert not any("tmpspace" in n for n in got.notes)
    assert scratch("#SBATCH --gres=gpu:2,lscratch:200G", "python a.py") == "200 GiB"
    # a count with no unit is not a size; another resource is not a disk
    assert scratch("#SBATCH --gres=lscratch:200", "python a.py") is None
    assert scratch("#SBATCH --gres=license:2", "python a.py") is None
    # --tmp comes first
    assert scratch("#SBATCH --tmp=10G", "#SBATCH --gres=tmp:50G", "python a.py") == "10 GiB"


def test_several_nodes_running_a_program_named_by_a_variable_are_no_gang():
    # `python $SCRIPT` with no srun or launcher on two nodes runs once, on the first node: how
    # the other node is used is not said, as for `python prep.py`.
    body = (
        'SCRIPT="/proj/prep.py"',
        "python $SCRIPT \\",
        "    --datapath /proj/raw --output /proj/g",
    )
    result = imported("#SBATCH --nodes=2", "#SBATCH --ntasks-per-node=2", *body)
    assert result.description.work.shape is None
    assert any("$SCRIPT" in note and "nodes" in note for note in result.notes)
    for written in ("${SCRIPT}", '"$SCRIPT"'):
        lines = (body[0], f"python {written} --datapath /proj/raw")
        result = imported("#SBATCH --nodes=2", "#SBATCH --ntasks-per-node=2", *lines)
        assert result.description.work.shape is None, written
    # with srun in front it is one program over both nodes
    result = imported(
        "#SBATCH --nodes=2", "#SBATCH --ntasks-per-node=2", 'S="/p/t.py"', "srun python $S"
    )
    assert result.description.work.shape == "gang"


def test_ntasks_takes_precedence_over_a_larger_ntasks_per_node():
    # sbatch's manual: with --ntasks, --ntasks-per-node is the most on a node.
    one_task = imported(
        "#SBATCH --nodes=1",
        "#SBATCH --ntasks=1",
        "#SBATCH --cpus-per-task=4",
        "#SBATCH --ntasks-per-node=2",
        "python3 train.py",
    )
    assert one_task.description.request.cpus_per_node == 4  # one task x 4, not 2 x 4
    both_full = imported(
        "#SBATCH --nodes=2", "#SBATCH --ntasks=72", "#SBATCH --tasks-per-node=36", "srun ./sim"
    )
    assert both_full.description.request.cpus_per_node == 36
    uneven = imported(
        "#SBATCH --nodes=2", "#SBATCH --ntasks=3", "#SBATCH --ntasks-per-node=2", "srun ./sim"
    )
    assert uneven.description.request.cpus_per_node == 2  # 2 + 1: the most on a node


def test_a_job_whose_work_is_a_sourced_script_says_no_hardware():
    # (seen-bb) Sourcing the project's run scripts in a loop shows no work of its own: what it
    # runs on is written there. Setting up (ulimit, deactivate) around a script handed over to
    # says nothing either; a program run by the job itself still reads as CPU-only.
    def cpu_only(*lines):
        return imported("#SBATCH -N 1", *lines).description.request.no_accelerators

    loop = (
        "source shared.sh",
        "if [[ $SLURM_ARRAY_TASK_ID<6 ]]",
        "then",
        '\tscheme="${sph[$SLURM_ARRAY_TASK_ID]}"',
        "fi",
        "for n in ${sizes[@]}",
        "do",
        "\tcd $n",
        "\tsource run.sh",
        "\tcd ..",
        "done",
    )
    assert cpu_only(*loop) is None
    assert cpu_only("ulimit -s unlimited", "./inputs/run_gs2.sh in/a.in", "deactivate") is None
    assert cpu_only("source run.sh", "./sim input.in") is True
    # (a script of setting up alone runs nothing: no hardware said either, as for seen-bd)
    assert cpu_only("source ~/.bashrc", "module load neuron") is None
    # A variable set for the command after it on the line: that command is the work.
    assert cpu_only("source run.sh", "X='a' python fit.py") is True


def test_a_cluster_templates_double_brace_fields_and_command_give_no_facts():
    # cryoSPARC's lane script: Jinja fields anywhere in a value are blanks filled at submission.
    lane = imported(
        "#SBATCH --job-name cryosparc_{{ project_uid }}_{{ job_uid }}",
        "#SBATCH --cpus-per-task={{ num_cpu }}",
        "#SBATCH --gres=gpu:{{ num_gpu }}",
        "#SBATCH --mem={{ ram_gb|int }}G",
        "#SBATCH --partition=r5000",
        "",
        "{{ run_cmd }}",
    )
    request = lane.description.request
    assert lane.description.name is None  # not "cryosparc_{{"
    assert not request.accelerators and not request.no_accelerators  # asked, count blank
    assert request.cpus_per_node is None and request.memory_per_node is None
    assert any("--partition r5000" in n for n in lane.notes)
    # RELION's submission template: the program is the GUI's to fill in, CPU-only is not said.
    relion = imported(
        "#SBATCH --ntasks=XXXmpinodesXXX", "#SBATCH --time=24:00:00", "mpirun XXXcommandXXX"
    )
    assert not relion.description.request.no_accelerators
    assert imported("#SBATCH --time=1:00:00", "mpirun ./sim").description.request.no_accelerators


def test_a_template_field_in_one_word_names_the_job_and_an_argument_leaves_the_program_its_own():
    # sbatch reads `{{name}}_sim` as one word: the job's name as written; a program given a
    # template's path is still a program of the job's own (CPU-only without a GPU directive)
    result = imported("#SBATCH -J {{name}}_sim", "#SBATCH -n 16", "srun ./gadget4 {{dir}}/a.param")
    assert result.description.name == "{{name}}_sim"
    assert result.description.request.no_accelerators is True
    # the command itself left blank: what it runs on is not said
    blank = imported("#SBATCH -n 16", "srun --mpi=pmi2 {{ run_cmd }}")
    assert blank.description.request.no_accelerators is None


def test_a_test_suite_run_by_ctest_does_not_say_cpu_only():
    # (seen-bk: `ctest` after `module load`, and `CMD="ctest . -j 32"` run as `$CMD`)
    for body in (
        "module load x\nctest\n",
        'CMD="ctest . -C Release -j 32"\n$CMD >& out\n',
        "make check\n",
    ):
        text = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH -t 00:30:00\n" + body
        [result] = jobformat.import_text(text.encode(), filename="t.sh")
        assert result.description.request.no_accelerators is None, body
    # a build with make and nothing else runs on the CPUs
    text = "#!/bin/bash\n#SBATCH --nodes=1\nmake -j 4\n"
    [result] = jobformat.import_text(text.encode(), filename="t.sh")


def test_the_line_readers_still_read_what_they_read():
    # (their timings on adversarial lines: portal.devtools.jobformat_bench)
    from jobs.jobformat import sbatch

    assert sbatch.SHELL_CONTROL.match('if [[ "$MODE" == train ]]; then')
    assert sbatch.SHELL_CONTROL.match("for f in $FILES; do")
    assert not sbatch.SHELL_CONTROL.match("if [[ $(hostname) ]]; then")
    assert sbatch.ONLY_ENVIRONMENT.match("module load gcc/12")
    assert not sbatch.ONLY_ENVIRONMENT.match("cd x; python a.py")
    assert sbatch.RUNS_A_PROGRAM.match("make -j8 foo.bar").group(2) == "foo.bar"


def test_a_body_that_only_sets_up_its_environment_says_nothing_of_cpu_only():
    # (second review) `spack load` as `module load`; a lone `exit 0`, a test around it, and a
    # move to the script's own folder are no work either
    for body in (
        "module load gcc\ncd $SLURM_SUBMIT_DIR\n",
        "spack load lammps\nsource run_lammps.sh\n",
        "module load x\nif [[ -f done.txt ]]; then\n  exit 0\nfi\n",
        "ml load R\nset -euo pipefail\ncd $(dirname $0)\n",
    ):
        text = f"#!/bin/bash\n#SBATCH -c 8\n{body}"
        [result] = jobformat.import_text(text.encode(), filename="x.sbatch")
        assert not result.description.request.no_accelerators, body
    [result] = jobformat.import_text(b"#!/bin/bash\n#SBATCH -c 8\nspack load x\n./sim\n")
    assert result.description.request.no_accelerators is True


def test_a_gpu_directive_given_a_variable_asks_for_no_count():
    # (seen-bp: `--gpus-per-node=${GPUS_PER_NODE}`: sbatch does not expand variables in
    # directives, so the value is no GPU type and no count)
    for line in ("#SBATCH --gpus-per-node=${GPUS_PER_NODE}", "#SBATCH --gres=gpu:$NGPU"):
        result = imported("#SBATCH -t 00:30:00", line, "srun python train.py")
        assert not result.description.request.accelerators, line
        assert any("does not expand" in n for n in result.notes), line
    kept = imported("#SBATCH --gpus-per-node=a100:4", "srun python train.py")
    assert (
        kept.description.request.accelerators[0].type,
        kept.description.request.accelerators[0].count,
    ) == ("a100", 4)


def test_a_gpu_directive_given_a_variable_still_asks_for_gpus():
    # GPUs asked for with no count readable: the job is not CPU-only, and no note says the
    # file has no GPU directive
    for line in ("#SBATCH --gres=gpu:$N", "#SBATCH --gpus-per-node=${GPUS_PER_NODE}"):
        for command in ("python train.py", "torchrun --nproc_per_node 4 train.py"):
            result = imported("#SBATCH -t 1:00:00", line, command)
            assert not result.description.request.no_accelerators, (line, command)
            assert not any("No GPU directive" in n for n in result.notes), (line, command)
    # a count given beside it is kept
    both = imported("#SBATCH --gres=gpu:$N", "#SBATCH --gpus-per-node=2", "python train.py")
    assert both.description.request.accelerators[0].count == 2
    kept = imported("#SBATCH --gpus-per-node=a100:4", "srun python train.py")
    assert (
        kept.description.request.accelerators[0].type,
        kept.description.request.accelerators[0].count,
    ) == ("a100", 4)


def test_several_nodes_running_a_helper_then_handing_over_to_a_script_state_no_shape():
    # (seen-bp: `python gen_host_file.py` then `bash ds_pretrain_bert.sh`, no launcher in the
    # file: how the two nodes are used is in the script handed over to)
    result = imported("#SBATCH -N 2", "python gen_host_file.py", "bash ds_pretrain_bert.sh")
    assert result.description.work.shape is None
    assert any("ds_pretrain_bert.sh" in n and "spreads over" in n for n in result.notes)
    # srun in front is a launcher: one step over both nodes
    launched = imported("#SBATCH -N 2", "python gen_host_file.py", "srun bash ds_pretrain_bert.sh")
    assert launched.description.work.shape is not None


def test_the_seen_bp_readers_read_their_cases():
    # (their timings on adversarial lines: portal.devtools.jobformat_bench)
    from jobs.jobformat import commands, envs

    assert envs.COLON_DEFAULT.search(': "${IMAGE:=$(pwd)/x.sqsh}"').group(2) == "$(pwd)/x.sqsh"
    assert commands.ARRAY_ELEMENT.match("    --container-mounts $M")
    assert commands.ARRAY_ELEMENT.match("declare -a ARGS=(")
    assert not commands.ARRAY_ELEMENT.match("srun python a.py")


def test_a_postgres_server_or_a_database_image_kept_up_is_real_time_and_a_restore_is_batch():
    head = "#!/bin/bash\n#SBATCH -t 1:00:00\n"

    def serves(body):
        [result] = jobformat.import_text((head + body).encode())
        return result.description.realtime.serves_requests

    # a database's own image under apptainer, waited on: its default command is the server
    image = "apptainer exec --bind ./pgdata:/var/lib/postgresql/data docker://postgres:16 &\n"
    assert serves(image + "PID=$!\nwait $PID\n") is True
    assert serves("singularity run docker://redis:7-alpine\n") is True
    # PostgreSQL in the foreground
    assert serves("postgres -D /scratch/db -p 5433\n") is True
    # started for the job's own client, then stopped: batch
    restore = "postgres -D /scratch/db -p 5433 &\nsleep 20\npsql -f dump.sql\npg_ctl -D /scratch/db stop\n"
    assert serves(restore) is not True
    # a name that only starts like one is no database image (`docker://postgresql-client`)
    assert serves("apptainer exec docker://postgresql-client:1 psql -f q.sql\n") is not True


def test_a_database_image_pulled_or_running_its_client_is_no_server():
    head = "#!/bin/bash\n#SBATCH -t 1:00:00\n"

    def serves(body):
        [result] = jobformat.import_text((head + body).encode())
        return result.description.realtime.serves_requests

    # a client the image holds, run once, finishes: a dump, a ping, a query
    dump = "apptainer exec docker://postgres:16 pg_dump -h db.example.org x > /scratch/x.sql\n"
    assert serves(dump) is not True
    assert serves("apptainer exec docker://redis:7 redis-cli -h cache ping\n") is not True
    assert serves("singularity exec docker://mongo:7 mongosh --eval 'db.stats()'\n") is not True
    # an image fetched or built is no server started
    assert serves("singularity pull pg.sif docker://postgres:16\n") is not True
    assert serves("apptainer build pg.sif docker://postgres:16\n") is not True
    # the server's own options or its own name after the image still start it
    assert serves("singularity run docker://redis:7 --port 6380\n") is True
    assert serves('apptainer exec "docker://postgres:16" postgres -c fsync=off\n') is True
    assert serves("apptainer instance start docker://mongo:7 db\nsleep infinity\n") is True


def test_a_charm_programs_device_list_is_gpu_work():
    def cpu_only(*lines):
        return imported("#SBATCH -N 1", *lines).description.request.no_accelerators

    # NAMD's `+devices` names the CUDA devices it runs on: not CPU-only, whatever the launcher.
    assert cpu_only("charmrun +p32 namd2 +devices 0,1,2,3 'eq.conf' > eq.log") is None
    assert cpu_only("namd3 +p8 +devices 0 eq.namd") is None
    assert cpu_only("namd3 +p8 eq.namd") is True
    # (a word that only contains it is not the option)
    assert cpu_only("echo a+devices") is True


def test_a_program_given_only_numbers_reads_nothing():
    def no_inputs(*lines):
        return imported("#SBATCH -N 1", *lines).description.data.no_inputs

    assert no_inputs("module load cuda/12.4", "./nbody_cuda 100000 0.01 50 101 128") is True
    assert no_inputs("mpirun -np 12 ./montecarlo 4 100000000 10") is True
    assert no_inputs("srun bin/mc 1e6;") is True
    # a script hands over to commands not shown; a file or a redirection is more than numbers
    for line in ("./run.sh 4", "./sim 100 data.in", "./sim 100 < deck", "./sim", "sim 100"):
        assert no_inputs(line) is None, line
    # …nor one run in a run folder it reads by convention (MITgcm's data* files), nor one
    # handed a loop's number (a case to read); the job's own scratch or a folder it made is empty
    assert no_inputs("cd $SLURM_SUBMIT_DIR/run", "mpirun -np 64 ./mitgcmuv 1") is None
    assert no_inputs("for i in 1 2 3; do ./sim $i; done") is None
    assert no_inputs("cd $SLURM_SUBMIT_DIR", "./nbody 1000 10") is True
    assert no_inputs("mkdir -p out", "cd out", "../nbody 1000 10") is True
    assert no_inputs("cd /scratch/$SLURM_JOB_ID", "./pi_mc 1000000") is True


def test_gpus_a_job_step_asks_on_one_node_are_the_jobs():
    def gpus(*lines):
        request = imported(*lines).description.request
        return [a.count for a in request.accelerators or []], request.no_accelerators

    step = "srun -N1 -n1 -c4 --gpus-per-task=1 --gpu-bind=closest ./kokkos_example"
    assert gpus("#SBATCH -N 1", step) == ([1], None)
    assert gpus("#SBATCH -N 1", "srun -n 4 --gpus-per-task 1 ./app") == ([4], None)
    assert gpus("#SBATCH --nodes=1", "srun --gpus=2 ./app") == ([2], None)
    # over several nodes, counts in variables, or nodes not said: no count per node
    assert gpus("#SBATCH -N 2", "srun -n 8 --gpus-per-task=1 ./app") == ([], None)
    assert gpus("#SBATCH -N 1", "srun -n $N --gpus-per-task=1 ./app") == ([], None)
    assert gpus("#SBATCH -n 8", "srun --gpus-per-task=1 ./app") == ([], None)
    # the program's own options are not srun's
    assert gpus("#SBATCH -N 1", "srun ./app --gpus=4") == ([], None)
    # no --nodes (one task): one node; srun's -G; tasks per node; steps run together add up
    assert gpus("#SBATCH -n 1", "srun --gpus-per-task=1 ./app") == ([1], None)
    assert gpus("#SBATCH --time=1:00:00", "srun --gpus=2 ./app") == ([2], None)
    assert gpus("#SBATCH -N 1", "srun -G 2 ./app") == ([2], None)
    assert gpus("#SBATCH -N 1", "srun --ntasks-per-node=4 --gpus-per-task=1 ./a") == ([4], None)
    both = ("srun -n 4 --gpus-per-task=1 ./a &", "srun -n 4 --gpus-per-task=1 ./b &", "wait")
    assert gpus("#SBATCH -N 1", *both) == ([8], None)
    assert gpus("#SBATCH -N 1", "srun --gpus=2 ./a", "srun --gpus=1 ./b") == ([2], None)
    # a step over several nodes says nothing of the others' count per node
    steps = ("srun -N 1 --gpus=2 ./prep", "srun -N 4 --gpus-per-node=4 ./train")
    assert gpus("#SBATCH -N 4", *steps) == ([], None)


def test_counts_in_digits_other_than_0_to_9_are_no_count_not_a_crash():
    # `²` passes str.isdigit() and int() refuses it: the file is read, with no count from it
    for lines in (
        ("#SBATCH -N 1", "srun --gpus=² ./a"),
        ("#SBATCH -N 1", "srun -n ³ --gpus-per-task=1 ./a"),
        ("#SBATCH --nodes=¹", "srun --gpus=2 ./a"),
        ("#SBATCH --array=0-3%²", "./a"),
        ("#SBATCH --exclusive", "GPUS_PER_NODE=²", "srun ./a"),
        ("#SBATCH -N 1", "torchrun --nproc_per_node=² a.py"),
        ("#SBATCH --gpus=a100:²", "./a"),
    ):
        request = imported(*lines).description.request
        assert not [a.count for a in request.accelerators or [] if a.count != 1], lines
    # plain digits still count
    assert (
        imported("#SBATCH -N 1", "srun --gpus=2 ./a").description.request.accelerators[0].count == 2
    )


def test_a_script_sourced_as_the_only_work_hands_the_job_over():
    def cpu_only(*lines):
        return imported("#SBATCH -N 1", *lines).description.request.no_accelerators

    # The work (and the hardware it needs) is in the script read into the job's shell.
    assert cpu_only("JOB_PERIOD=$((24 * 3600))", "source common.sh") is None
    assert cpu_only(". ./jobs/run_all.sh") is None
    # A script named for the environment sets up; the step after it is the work.
    assert cpu_only("source env.sh", "python fit.py") is True
    assert cpu_only("source setup_modules.sh", "python fit.py") is True


def test_a_toolchain_script_sourced_last_sets_up_and_hands_nothing_over():
    # a site's or a tool's set-up script (installed software, or named for a toolchain) is no
    # project script holding the work: the nodes stay one gang, no hand-over note
    for script in (
        "/opt/ohpc/pub/mpi/mvapich2.sh",
        "/appl/spack/intel.sh",
        "/cvmfs/soft.computecanada.ca/config/profile/bash.sh",
        "cuda12.sh",
        "GMXRC.sh",
        "$HOME/lmod.sh",
    ):
        result = imported("#SBATCH -N 4", "module load x", f"source {script}")
        assert not [n for n in result.notes if "only run" in n], script
        assert result.description.work.shape == "gang", script
    # the project's own script still holds the work
    for script in ("common.sh", "/home/u/proj/run_case.sh", "./jobs/run_all.sh"):
        result = imported("#SBATCH -N 4", "module load x", f"source {script}")
        assert [n for n in result.notes if "only run" in n], script


def test_a_start_script_kept_up_by_an_endless_loop_is_a_service():
    kept = imported(
        "#SBATCH --time=00:05:00",
        "#SBATCH --signal=B:SIGUSR1@90",
        "_resubmit() {",
        "    sbatch $0",
        "}",
        "trap _resubmit SIGUSR1",
        "export APP_CONFIG=/srv/app/config.toml",
        "/hpc/apps/webapp/0.5/start",
        "while true; do",
        '    echo "$(date): normal execution"',
        "    sleep 60",
        "done",
    )
    realtime = kept.description.realtime
    assert realtime.serves_requests is True and realtime.finishes_on_its_own is False
    # what the started services run on is in the start script: CPU-only is not said
    assert kept.description.request.no_accelerators is None
    # `./start_server.sh` too; a loop that ends (`break`) keeps nothing running
    served = imported("#SBATCH -N 1", "./start_server.sh", "while :; do sleep 30; done")
    assert served.description.realtime.serves_requests
    ended = imported(
        "#SBATCH -N 1",
        "./start.sh",
        "while true; do",
        "  [ -f done ] && break",
        "  sleep 5",
        "done",
    )
    assert not ended.description.realtime.serves_requests
    # a start script alone, then work that ends: batch, and its steps are still work
    batch = imported("#SBATCH -N 1", "./bin/startup.sh", "python train.py")
    assert not batch.description.realtime.serves_requests
    # a program merely named for starting (`start_training.py`) is no start script
    training = imported("#SBATCH -N 1", "./start_training.py", "while true; do sleep 60; done")
    assert training.description.realtime.serves_requests is not True
