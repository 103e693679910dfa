"""Data moved by a job's own commands (jobs/jobformat/commands.py, issue 28): our own small
scripts, each proposal with the line it was read from."""

from jobs import jobformat
from jobs.jobformat import commands
from jobs.jobformat.textio import HEAD_LINES, LONGEST_COMMAND, TAIL_LINES


def found(text, **kwargs):
    return [(p.path, p.value) for p in commands.read(text, **kwargs)]


def test_hub_models_and_datasets_are_inputs_with_the_line_they_were_read_from():
    text = (
        "pip install transformers\n"
        "huggingface-cli download northwind/seg-7b --local-dir /tmp/m\n"
        "hf download northwind/footage-index --repo-type dataset\n"
        "python -c \"from datasets import load_dataset; load_dataset('northwind/clips')\"\n"
        "python train.py --model_name_or_path northwind/seg-7b --dataset_name squad\n"
    )
    proposals = commands.read(text)
    assert [(p.path, p.value, p.line) for p in proposals] == [
        ("data.inputs", "hf://northwind/seg-7b", 2),
        ("data.inputs", "hf://datasets/northwind/footage-index", 3),
        ("data.inputs", "hf://datasets/northwind/clips", 4),
        ("data.inputs", "hf://datasets/squad", 5),
    ]
    assert proposals[0].text.startswith("huggingface-cli download")
    assert "on line 5" in proposals[-1].note()


def test_a_configuration_file_is_not_a_hub_id_and_a_builder_is_not_a_dataset():
    text = "python run.py --model configs/seg.yaml\npython -c \"load_dataset('json')\"\n"
    assert found(text) == []


def test_paths_given_to_the_program_after_variable_expansion():
    text = (
        "DATA=/lustre/datasets/webtext-v3\n"
        "export OUT=/lustre/runs/seg\n"
        "srun python train.py \\\n"
        "    --data $DATA \\\n"
        "    --output_dir ${OUT}/final\n"
    )
    proposals = commands.read(text)
    assert [(p.path, p.value, p.line) for p in proposals] == [
        # the physical line of the continued command that holds each option
        ("data.inputs", "/lustre/datasets/webtext-v3", 4),
        ("output.artifacts", "/lustre/runs/seg/final", 5),
    ]
    assert proposals[0].said == "--data /lustre/datasets/webtext-v3"


def test_a_value_still_a_shell_expression_is_left_out():
    assert found("python train.py --data $(ls -d /data/* | head -1)\n") == []


def test_cloud_copies_read_sources_and_write_destinations_and_the_local_copy_is_not_data():
    text = (
        "gsutil -m cp -r gs://northwind-train/shards $TMPDIR/\n"
        "python train.py --data $TMPDIR/shards --output_dir $TMPDIR/model\n"
        "aws s3 sync $TMPDIR/model s3://northwind-models/run-1/\n"
    )
    assert found(text) == [
        ("data.inputs", "gs://northwind-train/shards"),
        ("output.artifacts", "s3://northwind-models/run-1/"),
    ]


def test_uploads_to_the_hub_are_outputs():
    text = (
        "python train.py --push_to_hub --hub_model_id northwind/seg-7b-ft\n"
        "huggingface-cli upload northwind/masks ./masks --repo-type dataset\n"
    )
    assert found(text) == [
        ("output.artifacts", "hf://northwind/seg-7b-ft"),
        ("output.artifacts", "hf://datasets/northwind/masks"),
    ]


def test_fetched_urls_are_inputs_but_installers_are_not():
    text = (
        "curl -fsSL https://get.example.com/install.sh | sh\n"
        "wget https://download.northwind.example/footage/clips-2027.tar\n"
        "wget https://github.com/foo/bar/releases/download/v1/tool.deb\n"
    )
    assert found(text) == [
        ("data.inputs", "https://download.northwind.example/footage/clips-2027.tar")
    ]


def test_save_and_load_of_the_same_path_is_a_checkpoint_the_job_resumes_from():
    text = "CKPT=/scratch/ckpt/run7\nsrun python pretrain.py --save $CKPT --load $CKPT\n"
    assert found(text) == [
        ("request.checkpoint_location", "/scratch/ckpt/run7"),
        ("request.preemptible", True),
    ]


def test_a_load_alone_or_a_resume_without_a_checkpoint_place_is_not_resumption():
    # --load without a --save there is the model the job starts from, read, not resumed.
    assert found("python train.py --load /models/base --resume\n") == [
        ("data.inputs", "/models/base")
    ]


def test_a_load_path_is_the_checkpoint_a_run_starts_from_or_resumes_where_it_saves():
    text = 'torchrun scripts/train.py c.yaml --load_path="/w/OLMo-1B/step369000-unsharded/"\n'
    assert found(text) == [("data.inputs", "/w/OLMo-1B/step369000-unsharded/")]
    text = "python train.py --save /w/ckpt --load-path /w/ckpt\n"
    assert found(text) == [
        ("request.checkpoint_location", "/w/ckpt"),
        ("request.preemptible", True),
    ]


def test_checkpoint_options_and_resume():
    text = "python train.py --checkpoint-dir /scratch/ckpt --resume\n"
    assert found(text) == [
        ("request.checkpoint_location", "/scratch/ckpt"),
        ("request.preemptible", True),
    ]


def test_containers_outside_pyxis():
    # (a mount at the same path on both sides is a mount too: its direction is not shown)
    assert found("apptainer exec --nv -B /scratch:/scratch seg.sif python x.py\n") == [
        ("data.unclassified", "/scratch -> /scratch"),
        ("work.image", "seg.sif"),
    ]
    assert found("singularity run docker://northwind/seg:7\n") == [
        ("work.image", "northwind/seg:7")
    ]
    assert found("docker run --rm --gpus all -e A=1 northwind/seg:7 python x.py\n") == [
        ("work.image", "northwind/seg:7")
    ]
    assert found("podman-hpc run --rm northwind/seg:7\n") == [("work.image", "northwind/seg:7")]


def test_container_mounts_have_no_direction_and_the_code_mount_is_code():
    text = "apptainer exec -B /lustre/cache:/root/.cache seg.sif python x.py\n"
    assert ("data.unclassified", "/root/.cache -> /lustre/cache") in found(text)
    text = "srun --container-mounts=$HOME/seg:/workspace sh -c 'cd /workspace && python x.py'\n"
    assert found(text) == [("work.code", "$HOME/seg")]


def test_the_same_location_twice_is_one_proposal():
    text = "python a.py --data /d/x\npython b.py --data /d/x/\n"
    assert found(text) == [("data.inputs", "/d/x")]


def test_tensorboard_reads_its_logdir():
    assert found("tensorboard --logdir /runs/seg --port 6006 &\n") == []


def test_a_trainers_logging_dir_is_written():
    text = "python run_mlm.py --train_file ./seqs.txt --logging_dir /runs/seg/tb\n"
    assert found(text) == [("data.inputs", "./seqs.txt"), ("output.artifacts", "/runs/seg/tb")]


def test_a_trainers_run_dir_is_written_an_evaluations_is_not():
    text = "srun python scripts/pretrain.py --run-dir /s/runs/$SLURM_JOB_ID\n"
    assert found(text) == [("output.artifacts", "/s/runs/$SLURM_JOB_ID")]
    assert found("nh-run evaluate --run-dir ./runs/$OUTDIR\n") == []


SBATCH = """#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:4
#SBATCH --image=docker:northwind/seg:7

DATA=/lustre/datasets/webtext-v3
srun shifter python train.py --data $DATA --output-dir /lustre/runs/seg
"""


def test_sbatch_import_fills_the_description_with_a_note_per_proposal():
    (result,) = jobformat.import_text(SBATCH.encode(), filename="train.sbatch")
    data = result.description.to_data()
    assert data["data"]["inputs"] == [{"location": "/lustre/datasets/webtext-v3"}]
    assert data["output"]["artifacts"] == [{"destination": "/lustre/runs/seg"}]
    assert data["work"]["image"] == "docker:northwind/seg:7"
    assert any("--data /lustre/datasets/webtext-v3` on line 7" in n for n in result.notes)
    assert not any(n.startswith("Output not declared") for n in result.notes)


SKY = """name: seg
resources:
  accelerators: A100:8
envs:
  MODEL: northwind/seg-7b
file_mounts:
  /results:
    name: northwind-results
    mode: MOUNT
run: |
  python train.py --model_name_or_path $MODEL --output_dir /results/run1
  python eval.py --data ~/eval-set
"""


def test_skypilot_commands_follow_the_mounts_and_paths_under_a_mount_are_its_entry():
    (result,) = jobformat.import_text(SKY.encode(), filename="seg.yaml")
    data = result.description.to_data()
    assert [i["location"] for i in data["data"]["inputs"]] == [
        "hf://northwind/seg-7b",
        "~/eval-set",
    ]
    assert [a["destination"] for a in data["output"]["artifacts"]] == ["bucket://northwind-results"]
    assert any("on line 1 of run" in n for n in result.notes)


def test_a_server_kept_in_the_foreground_is_real_time_and_one_for_a_client_is_not():
    served = "#!/bin/bash\n#SBATCH --nodes=1\nsingularity exec db.sif /usr/bin/mysqld_safe\n"
    (result,) = jobformat.import_text(served.encode(), filename="db.sbatch")
    assert result.description.realtime.serves_requests is True
    client = (
        "#!/bin/bash\n#SBATCH --nodes=1\nvllm serve northwind/seg-7b &\n"
        "python client.py --model northwind/seg-7b\nkill %1\n"
    )
    (result,) = jobformat.import_text(client.encode(), filename="batch.sbatch")
    assert result.description.realtime.serves_requests is None
    assert result.description.data.inputs[0].location == "hf://northwind/seg-7b"


def test_a_long_continued_command_is_read_whole():
    # Its speed is the benchmark's (portal/devtools): here, that 2,000 continued lines and a
    # 200,000-character word are read as one command with its data, not cut or skipped.
    line = "python train.py --data /d/x --output_dir /o " + "--flag " * 200 + "\\\n"
    text = line * 2000 + "echo done\n" + "a" * 200_000 + "\n"
    assert any(p.value == "/d/x" for p in commands.read(text))


def clones(*sections):
    return [p.value for p in commands.code_from_clones([(t, "", 1) for t in sections])]


def test_a_cloned_repository_the_job_runs_its_program_from_is_its_code_at_its_ref():
    setup = (
        "git clone https://github.com/northwind/seg-train.git || true\n"
        "cd seg-train && git checkout 1a2b3c4\npip install -e .\n"
        "git clone -b v2.1 https://github.com/northwind/seg-tools tools\n"
    )
    run = "cd seg-train\ntorchrun --nproc_per_node 8 train.py\npython tools/eval.py\n"
    assert clones(setup, run) == [
        "https://github.com/northwind/seg-train.git@1a2b3c4",
        "https://github.com/northwind/seg-tools@v2.1",
    ]


def test_a_cloned_library_only_installed_or_built_is_not_the_jobs_code():
    setup = (
        "git clone https://github.com/NVIDIA/apex\ncd apex\npip install -v --no-build-isolation ./\n"
        "cd ..\ngit clone https://github.com/northwind/kernels\n(cd kernels && make -j)\n"
    )
    assert clones(setup, "python train.py --epochs 3\n") == []


def test_a_command_uv_runs_in_a_clone_is_the_clones_code():
    setup = "git clone --recursive https://github.com/northwind/ft.git\ncd ft\nmake all\n"
    run = "cd ft/\nRUST_BACKTRACE=1 uv run ft_lighthouse --min_replicas 1\n"
    assert clones(setup, run) == ["https://github.com/northwind/ft.git"]
    # `uv sync` there only builds the environment; `uv run` outside the clone is another's.
    assert clones(setup + "uv sync\n", "uv run ft_lighthouse\n") == []


def test_commands_that_plainly_read_nothing_say_so_and_any_program_of_the_job_does_not():
    def quiet(text):
        return ("data.no_inputs", True) in found(text)

    assert quiet("nvidia-smi\n")
    assert quiet('if [ "$RANK" == "0" ]; then\n  echo head\nfi\nsleep 60\n')
    assert quiet("srun --mpi=pmix -N 2 /opt/nccl-tests/build/all_reduce_perf -b 8 -e 2G\n")
    assert quiet("srun python -u -m torch.distributed.run --nproc_per_node 8 all_reduce_bench.py\n")
    assert not quiet("module load ansys\n")  # sets a place up; the work is not shown
    assert not quiet("echo start\npython train.py\n")
    assert not quiet("conda run -n seg python -c 'print(1)'\n")
    assert not quiet("if curl -s http://head:8080/ > /dev/null; then echo ok; fi\n")
    assert not quiet("cat > job.py << EOF\nprint(1)\nEOF\n")


def test_the_submit_directory_mounted_into_a_container_is_the_jobs_code():
    text = "srun --container-image=nvcr.io#nvidia/pytorch:24.02-py3 --container-mounts=$PWD:/workspace python bench.py\n"
    assert ("work.code", "$PWD") in found(text)


def test_a_script_that_ends_serving_on_its_head_node_or_in_a_program_named_a_server_serves():
    from jobs.jobformat.realtime import ends_serving

    head = (
        'if [ "$RANK" == "0" ]; then\n  python train.py\n  vllm serve /ckpt/hf --port 9090\n'
        "else\n  sleep 15\n  ray start --address $HEAD:6379\nfi\necho done\n"
    )
    assert ends_serving(head)
    assert ends_serving("python -m dynamo.sglang --model-path m --host 0.0.0.0 --port 8081\n")
    assert ends_serving('bash "/apps/llm/service.sh" $MODEL $PORT\n')
    # A server for the job's own client, waited for with the training: batch.
    assert not ends_serving("srun run_server.sh head\nsrun run_training.sh\nwait\n")
    assert not ends_serving("if [ -f done ]; then\n  python eval.py\nelse\n  python train.py\nfi\n")


def test_a_server_waited_on_then_its_status_handed_on_serves():
    from jobs.jobformat.realtime import ends_serving

    served = (
        "vllm serve org/m --port 8000 &\nPID=$!\n"
        "until curl -fsS http://127.0.0.1:8000/v1/models; do sleep 2; done\n"
        'wait "$PID"\nrc=$?\nif [ $rc -ne 0 ]; then\n  echo "server exited with $rc"\nfi\n'
        "exit $rc\n"
    )
    assert ends_serving(served)
    # The same status handling after a batch step says nothing of serving.
    assert not ends_serving(
        "python train.py\nrc=$?\nif [ $rc -ne 0 ]; then\n  echo failed\nfi\nexit $rc\n"
    )
    # …nor after a client of the server that then stops it.
    assert not ends_serving("vllm serve org/m &\npython bench.py\nrc=$?\nkill %1\nexit $rc\n")


def test_a_last_step_told_the_address_to_listen_on_serves():
    from jobs.jobformat.realtime import ends_serving

    assert ends_serving("cd app\nuv run lighthouse --bind=$HEAD_IP:29510 --min_replicas 1\n")
    assert ends_serving("gunicorn --bind 0.0.0.0:8000 app:wsgi\n")
    # A container's bind mount is no address, and a listener started in the background ends
    # with the script.
    assert not ends_serving("apptainer exec --bind $DATA:/data img.sif python train.py\n")
    assert not ends_serving("tool --bind :9000 &\npython train.py\n")


def test_a_last_step_given_the_port_the_task_opens_serves():
    from jobs.jobformat.realtime import ends_serving

    balancer = "python -u -m tools.balancer --controller-addr http://$IP:20001 --lb-port 9002\n"
    assert ends_serving(balancer, opens_ports=frozenset({"9002"}))
    # Another port than the one opened, or the port its peers meet on, says nothing.
    assert not ends_serving(balancer, opens_ports=frozenset({"8080"}))
    trainer = "torchrun --nnodes 2 --master_port 8008 train.py\n"
    assert not ends_serving(trainer, opens_ports=frozenset({"8008"}))


def test_a_last_step_its_author_says_starts_a_server_serves():
    from jobs.jobformat.realtime import ends_serving

    inner = 'srun --container-image=img bash -c "\n  export PORT=2000\n  # Start server\n  node src\n  "\n'
    assert ends_serving(inner)
    assert ends_serving("# launch the inference server\n./bin/app --port 8000\n")
    # Started in the background, with the job's own work after it: batch.
    assert not ends_serving("# start server\n./bin/app &\npython client.py\n")
    # A note that is not about the step below it, or a server stopped, says nothing.
    assert not ends_serving("# start server later\npython train.py\n# done\necho ok\n")
    assert not ends_serving("# starting the run\nnode src\n")
    assert not ends_serving("# start server\nnode src\nkill %1\n")


def test_a_script_in_bash_c_with_grouped_options_and_a_ray_working_dir():
    text = (
        'MOUNT="$CODE:/app,$HOME/.cache:/root/.cache"\n'
        'srun --container-image=img --container-mounts="$MOUNT" bash -c "ray job submit '
        '--runtime-env-json=\'{\\"working_dir\\": \\"/app\\"}\' -- python3 -m seg.train '
        "--actor.model_name_or_path northwind/seg-7b --data.prompt_data northwind/prompts "
        '--ckpt.output_dir /app/out/seg"\n'
    )
    assert found(text) == [
        ("work.code", "$CODE"),
        ("data.unclassified", "/root/.cache -> $HOME/.cache"),
        ("data.inputs", "hf://northwind/seg-7b"),
        ("data.inputs", "hf://datasets/northwind/prompts"),
        # /app is $CODE mounted: what the program writes there lands in $CODE on the host
        ("output.artifacts", "$CODE/out/seg"),
    ]


def test_a_placeholder_left_for_the_user_is_not_a_location():
    assert found("CODE=<ROOT_PATH>\npython train.py --data {data_dir} --output_dir <OUT>\n") == []


def test_a_comment_line_inside_a_continued_command_is_read_past():
    text = "srun -N 2 \\\n  # the binary may move\n  /opt/nccl/all_reduce_perf -b 8 \\\n  -e 2G\n"
    ((line, joined),) = commands.logical_lines(text)
    assert line == 1 and joined.split() == [
        "srun",
        "-N",
        "2",
        "/opt/nccl/all_reduce_perf",
        "-b",
        "8",
        "-e",
        "2G",
    ]
    assert ("data.no_inputs", True) in found(text)


def test_downloads_later_in_a_line_and_by_other_fetchers():
    text = "mkdir -p data && cd data && wget -c https://example.org/cifar.tar.gz\naxel -n 8 https://example.org/wiki.xml.bz2\n"
    assert found(text) == [
        ("data.inputs", "https://example.org/cifar.tar.gz"),
        ("data.inputs", "https://example.org/wiki.xml.bz2"),
    ]


def test_megatron_style_files_outputs_and_a_save_and_load_under_the_job_id():
    text = (
        'OUT="$ROOT"/run/"$SLURM_JOB_ID"\n'
        'CMD="$(pwd)/pretrain.py --vocab-file $VOCAB --merge-file $MERGES --data-path $DATA '
        '--tensorboard-dir $OUT/tb --save $OUT/ckpt"\n'
        'CMD="$CMD --load $OUT/ckpt"\n'
        'srun bash -c "python $CMD"\n'
    )
    assert found(text) == [
        ("data.inputs", "$VOCAB"),
        ("data.inputs", "$MERGES"),
        ("data.inputs", "$DATA"),
        ("output.artifacts", "$ROOT/run/$SLURM_JOB_ID/tb"),
        ("request.checkpoint_location", "$ROOT/run/$SLURM_JOB_ID/ckpt"),
    ]  # a place named after the job id is new each run: checkpoints go there, nothing resumes


def test_a_path_in_the_images_own_folders_is_not_data_unless_mounted():
    text = (
        "srun --container-image=bert:21 --container-mounts=/home/u/out:/results "
        "python /workspace/run.py --vocab_file=/workspace/vocab --output_dir=/results\n"
    )
    assert ("data.inputs", "/workspace/vocab") not in found(text)
    # /results is the container's name for the host folder mounted there.
    assert ("output.artifacts", "/home/u/out") in found(text)


def test_paths_inside_a_container_are_the_host_paths_mounted_there():
    text = (
        "readonly mounts=/lustre/wiki:/data/wiki,/lustre/shards:/data/shards,$PWD/out:/results\n"
        'srun --container-image=bert:21 --container-mounts="$mounts" '
        "prep --wikipedia /data/wiki --sink /results/parquet --cache-dir /results/cache\n"
        "apptainer exec -B /scratch/run7:/ckpt img.sif python t.py --resume-from /ckpt/last\n"
    )
    assert found(text) == [
        # a mount the commands do not use says no direction
        ("data.unclassified", "/data/shards -> /lustre/shards"),
        # the program reads the mount it is handed; it writes where its option says, and
        # keeps its own files (a cache) where it likes
        ("data.inputs", "/lustre/wiki"),
        ("output.artifacts", "$PWD/out/parquet"),
        ("data.inputs", "/scratch/run7/last"),
        ("work.image", "img.sif"),
    ]
    # A file the program writes inside its own output folder is part of that output.
    text = (
        "srun --container-mounts=/home/u/out:/results train "
        "--output_dir=/results --json-summary=/results/summary.json\n"
    )
    assert found(text) == [("output.artifacts", "/home/u/out")]


def test_configuration_overrides_name_data_models_and_checkpoints():
    text = (
        "python3 -m verl.trainer.main_ppo data.train_files=$HOME/math/train.parquet "
        "actor_rollout_ref.model.path=northwind/seg-7b "
        "checkpointing.checkpoint_dir='results/seg' trainer.logger=[console]\n"
    )
    assert found(text) == [
        ("data.inputs", "$HOME/math/train.parquet"),
        ("data.inputs", "hf://northwind/seg-7b"),
        ("request.checkpoint_location", "results/seg"),
    ]


def test_an_output_directory_saved_to_every_n_steps_holds_the_checkpoints():
    text = "python run_qa.py --output_dir /ckpt/qa/ --save_steps 1000 --hf_upload_path org/qa\n"
    assert found(text) == [
        ("output.artifacts", "hf://org/qa"),
        ("request.checkpoint_location", "/ckpt/qa/"),
    ]
    assert found("python run.py --output_dir /out --save_strategy no\n") == [
        ("output.artifacts", "/out")
    ]
    # A bare folder name saved to every N steps is a folder in the working directory; without
    # the interval a bare name is as often the run's name.
    text = 'N=qa\naccelerate launch cp.py --save_steps 1000 --output_dir "ckpt_$N"\n'
    assert found(text) == [("request.checkpoint_location", "ckpt_qa")]
    assert found("python run.py --output_dir ckpt_qa\n") == []


def test_copies_to_and_from_the_nodes_own_disk_are_staging():
    text = (
        "time cp -a ../data/train.h5 /tmp/. ; python train.py ;\n"
        "cp /tmp/model.pth ./model.pth.$$\ncp config.yaml /dev/shm/\n"
    )
    assert found(text) == [
        ("data.inputs", "../data/train.h5"),
        ("output.artifacts", "./model.pth.$$"),
    ]
    # a folder's contents copied in (`D/*`) read the folder
    text = (
        "mkdir -p $SLURM_TMPDIR/w\ncp -r /scratch/me/run/weights/* $SLURM_TMPDIR/w/\npython g.py\n"
    )
    assert found(text) == [("data.inputs", "/scratch/me/run/weights")]
    # a JSON file staged on the node's own disk is data, unless its name says settings
    text = "cp /scratch/me/m/stats.json $SLURM_TMPDIR/\ncp /scratch/me/ds_config.json /tmp/\n"
    assert found(text + "python g.py\n") == [("data.inputs", "/scratch/me/m/stats.json")]


def test_a_copy_to_each_nodes_disk_through_srun_reads_the_data_and_a_tokenizer_file():
    text = (
        "W=/tmp/$USER\nsrun mkdir -p $W\n"
        "srun rsync --progress -r ~/shared/datasets/bins/ $W/bins/\n"
        "srun rsync --progress ~/shared/models/item.tokenizer.json $W/\n"
        "srun --ntasks-per-node=1 cp ~/shared/settings.json $W/\n"
    )
    assert found(text) == [
        ("data.inputs", "~/shared/datasets/bins/"),
        ("data.inputs", "~/shared/models/item.tokenizer.json"),
    ]
    # srun's options with a separate value are skipped with it: the same copy on each node
    assert found("srun -N 2 cp -r /lustre/d /tmp/d\n") == [("data.inputs", "/lustre/d")]


def test_a_server_kept_alive_by_an_endless_health_loop_serves_and_a_default_image_is_read():
    from jobs.jobformat.realtime import ends_serving

    loop = (
        "vllm serve org/m --port 8000 &\nwhile true; do\n"
        "  curl -sf localhost:8000/health || echo down\n  sleep 30\ndone\n"
    )
    assert ends_serving(loop)
    assert not ends_serving(loop.replace("|| echo down", "|| break"))
    text = (
        'IMG=${IMG:-"nvcr.io/nvidia/pytorch:24.01-py3"}\ndocker run --gpus all $IMG python x.py\n'
    )
    assert ("work.image", "nvcr.io/nvidia/pytorch:24.01-py3") in found(text)


def test_what_the_commands_say_is_given_the_line_it_was_read_from():
    text = (
        "#!/bin/bash\n#SBATCH --nodes=1\n\nsrun python tools/prep.py \\\n"
        "    --input /lustre/raw/oscar.jsonl \\\n    --output-prefix /lustre/tok/oscar\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="prep.sbatch")
    assert result.sources["data.inputs.0.location"]["line"] == 5
    assert result.sources["output.artifacts.0.destination"] == {
        "line": 6,
        "text": "--output-prefix /lustre/tok/oscar",
    }


def test_dvc_moves_data_from_and_to_a_remote_the_script_adds():
    text = (
        "dvc remote add -f store gs://lake-dvc/cache\n"
        "dvc pull data/raw -r store\n"
        "python train.py --epochs 2\n"
        "dvc push -r store\n"
    )
    assert found(text) == [
        ("note", "dvc pull"),
        ("data.inputs", "gs://lake-dvc/cache"),
        ("note", "dvc push"),
        ("output.artifacts", "gs://lake-dvc/cache"),
    ]
    # With several remotes and none named, which one is not said.
    text = "dvc remote add a s3://x/a\ndvc remote add b s3://x/b\ndvc pull\n"
    assert found(text) == [("note", "dvc pull")]


def test_data_moved_by_dvc_is_a_note():
    text = (
        "#!/bin/bash\n#SBATCH --nodes=1\ndvc pull data/raw\npython train.py\ndvc exp push origin\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="dvc.sbatch")
    notes = "\n".join(result.notes)
    assert "`dvc pull` (line 3)" in notes and "`dvc exp push` (line 5)" in notes


def test_script_variables_are_read_once_as_the_shell_sets_them():
    text = (
        'readonly ROOT="/lustre"/"$USER"\n'
        "declare -r DATA_PATH=${DATA_PATH:-$ROOT/webtext}\n"
        "HOST=$(scontrol show hostnames | head -n 1)\n"
        'ARGS="--save $ROOT/ckpt --seq $((4 * 1024))"\n'
        'ARGS="$ARGS --load $ROOT/ckpt"\n'
        "if [ -n x ]; then OUT=/a; else OUT=/b; fi\n"
        "srun python t.py --rdzv $HOST:6000 $ARGS --output_dir $OUT\n"
    )
    assert found(text) == [
        ("data.inputs", "/lustre/$USER/webtext"),
        ("request.checkpoint_location", "/lustre/$USER/ckpt"),
        ("request.preemptible", True),
        # OUT has two values (which one depends on the run): kept as written
        ("output.artifacts", "$OUT"),
    ]


def test_a_data_option_takes_several_values_hub_datasets_among_them():
    text = (
        "deepspeed main.py --data_path northwind/clips northwind/captions /lustre/extra "
        "--data_split 2,4,4 --model_name_or_path northwind/seg-7b\n"
        "python prep.py --data-path data/train\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://datasets/northwind/clips"),
        ("data.inputs", "hf://datasets/northwind/captions"),
        ("data.inputs", "/lustre/extra"),
        ("data.inputs", "hf://northwind/seg-7b"),
        # data/train is a folder of the job's own, not a Hub dataset
    ]


def test_a_trainer_given_a_data_folder_of_two_parts_reads_it():
    text = (
        "python denoiser/train.py --data data/renders --epochs 100\n"
        "python denoiser/evaluate.py --data data/renders\n"
    )
    assert found(text) == [("data.inputs", "data/renders")]
    # not a folder an earlier step of the job fills, nor one a preparing step is given
    text = "python prep.py --output_dir data/shards\npython train.py --data data/shards\n"
    assert ("data.inputs", "data/shards") not in found(text)
    assert found("python prep.py --data data/train\n") == []
    # nor a folder named for results
    assert found("python train.py --data outputs/old\n") == []


def test_the_scene_a_3d_reconstruction_fits_is_read():
    text = "python train_render.py --scene_path $1 --output_path $2 --use_lr --port $3\n"
    assert found(text) == [("data.inputs", "$1"), ("output.artifacts", "$2")]
    text = "python train.py --source_path /lake/scenes/garden --iterations 30000\n"
    assert found(text) == [("data.inputs", "/lake/scenes/garden")]


def test_adapters_a_server_loads_and_models_and_data_named_in_variables():
    text = (
        "MODEL_PATH=/n/models/seg-70b\n"
        "base_model=northwind/seg-7b\n"
        "train_data_path='/ephemeral/shards/train_*.bin'\n"
        "val_data_path='/ephemeral/shards/val_*.bin'\n"
        "out_dir=/ephemeral/runs/r1\n"
        "python -m sglang.launch_server --model-path $MODEL_PATH "
        "--lora-paths a=northwind/seg-lora b=/n/adapters/b --port 8000\n"
    )
    assert found(text) == [
        ("data.inputs", "/n/models/seg-70b"),
        ("data.inputs", "hf://northwind/seg-7b"),
        ("data.inputs", "/ephemeral/shards/train_*.bin"),
        ("data.inputs", "/ephemeral/shards/val_*.bin"),
        ("output.artifacts", "/ephemeral/runs/r1"),
        ("data.inputs", "hf://northwind/seg-lora"),
        ("data.inputs", "/n/adapters/b"),
    ]


def test_a_dataset_named_in_a_sed_expression_has_its_slashes_unescaped():
    text = 'sed -i \'s/load_dataset("northwind\\/clips")/load_dataset("northwind\\/clips", revision="a1")/\' prep.py\n'
    assert found(text) == [("data.inputs", "hf://datasets/northwind/clips")]


def test_what_keeps_a_server_running_and_what_stops_it():
    from jobs.jobformat.realtime import ends_serving

    started = "vllm serve northwind/seg-7b --port 8000 &\nSERVER=$!\n"
    # Waiting on the server, following its log or sleeping for hours keeps it serving.
    assert ends_serving(started + 'wait "$SERVER"\n')
    assert ends_serving(started + "tail -f server.log\n")
    assert ends_serving(started + "sleep 48h\n")
    assert not ends_serving(started + "sleep 30\n")
    # A health loop asking with kill -0, a trap that cleans up at the end and a message about
    # stopping stop nothing; a kill or `… stop` after the client does.
    loop = "while kill -0 $SERVER; do sleep 60; done\n"
    assert ends_serving("trap 'kill $SERVER' EXIT\n" + started + loop)
    assert ends_serving(started + 'echo "stop it with scancel"\nwait\n')
    assert ends_serving("llama-server -m /models/q4.gguf --stop-token x --port 8080\n")
    assert not ends_serving(started + "python client.py\nkill $SERVER\n")
    assert not ends_serving("ray start --head\npython serve_eval.py &\nwait\nray stop\n")
    # Other servers people keep running: routers, llama.cpp, Jupyter's server.
    assert ends_serving("python -m sglang_router.launch_router --port 30000\n")
    assert ends_serving("srun python scripts/e2b_router.py --port 8000\n")
    assert ends_serving("jupyter server --no-browser --port 8888\n")


def test_a_folder_the_job_makes_and_writes_its_results_in_is_an_output_on_a_cluster():
    text = (
        "DIR=run-$SLURM_ARRAY_TASK_ID\n"
        "mkdir -p $DIR\n"
        "pushd $DIR\n"
        "python /home/u/sim.py > result.out\n"
        "popd\n"
        "mkdir -p logs\n"
        "srun python t.py 2>&1 | tee -a logs/main.txt\n"
    )
    # The results' folder; a log kept in a made folder is the console, not an output.
    assert found(text, shared_disk=True) == [("output.artifacts", "run-$SLURM_ARRAY_TASK_ID")]
    # A cloud VM's disk goes with the VM: what stays there is no output.
    assert found(text) == []


def test_an_archive_created_is_an_output_and_one_unpacked_an_input():
    text = "tar -xf /lustre/in/shards.tar -C /tmp\ntar cvf /store/ckpt-100.tar ckpt-100\n"
    assert found(text) == [
        ("data.inputs", "/lustre/in/shards.tar"),
        ("output.artifacts", "/store/ckpt-100.tar"),
    ]


def test_an_archive_made_on_the_shared_disk_reads_what_it_packs():
    text = (
        "cd /proj/runs/\ntar -zcvf 07_out.tar.gz 07_out/ logs\ntar -zcf /proj/bams.gz /work/bams\n"
    )
    assert found(text, shared_disk=True) == [
        ("output.artifacts", "/proj/runs/07_out.tar.gz"),
        ("data.inputs", "/proj/runs/07_out/"),
        ("data.inputs", "/proj/runs/logs"),
        ("output.artifacts", "/proj/bams.gz"),
        ("data.inputs", "/work/bams"),
    ]
    # Not after a program ran (it packs the results), nor with -C, nor off the shared disk.
    for text in (
        "python fit.py\ntar -czf /proj/out.tgz maps\n",
        "tar -C /proj -czf /proj/out.tgz maps\n",
        # (review) nor after a program earlier on the same line
        "python fit.py --out maps && tar -czf /proj/out.tgz maps\n",
        "python fit.py; tar -czf /proj/out.tgz maps\n",
    ):
        assert found(text, shared_disk=True) == [("output.artifacts", "/proj/out.tgz")], text
    assert found("tar -czf out.tgz maps\n") == []
    # a program after it on the line does not change what it packs
    assert ("data.inputs", "/proj/maps") in found(
        "tar -czf /proj/out.tgz /proj/maps && python fit.py\n", shared_disk=True
    )


def test_ffmpeg_reads_its_inputs_and_writes_the_file_its_command_ends_with():
    text = (
        "srun --ntasks=1 ffmpeg \\\n-y -i part-$SLURM_ARRAY_TASK_ID.mp4 -filter:v scale=640:360 \\\n"
        "out-part-$SLURM_ARRAY_TASK_ID.mp4\n"
        "ffmpeg -framerate 25 -pattern_type glob -i 'Ek*.jpg' -pix_fmt yuv420p /movies/Ek.mp4\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "part-$SLURM_ARRAY_TASK_ID.mp4"),
        ("output.artifacts", "out-part-$SLURM_ARRAY_TASK_ID.mp4"),
        ("data.inputs", "Ek*.jpg"),
        ("output.artifacts", "/movies/Ek.mp4"),
    ]
    # The last word an option's value, stdout, a null output, or relative files off the cluster.
    for text in (
        "ffmpeg -i /in/a.mp4 -f null -\n",
        "ffmpeg -i /in/a.mp4 -c:v libx264\n",
    ):
        assert found(text, shared_disk=True) == [("data.inputs", "/in/a.mp4")], text
    assert found("ffmpeg -i a.mp4 b.mp4\n") == []
    # (review 1) its output is its last word before redirections, a `&`, a comment or flags
    for text in (
        "ffmpeg -i /in/a.mp4 -c copy /out/b.mp4 > ff.log 2>&1\n",
        "ffmpeg -i /in/a.mp4 /out/b.mp4 &\n",
        "ffmpeg -i /in/a.mp4 /out/b.mp4 -y\n",
        "ffmpeg -i /in/a.mp4 /out/b.mp4 >> ff.log 2>&1 # convert\n",
    ):
        assert found(text, shared_disk=True) == [
            ("data.inputs", "/in/a.mp4"),
            ("output.artifacts", "/out/b.mp4"),
        ], text
    # a stream's address is read without its query or user part, said as its `-i` alone
    text = 'ffmpeg -i "srt://u:pw@cam:9000?passphrase=Zq9Secret77" -c copy /out/v.mp4\n'
    [stream, _] = commands.read(text)
    assert (stream.path, stream.value, stream.said) == (
        "data.inputs",
        "srt://cam:9000",
        "-i srt://cam:9000",
    )


def test_a_list_of_tasks_fed_to_parallel_or_picked_by_sed_is_the_work_not_data():
    for text in (
        "parallel -j 1 < /mnt/jobs/cmds.sh\n",
        "srun -N 1 parallel --joblog j.log < cmds.txt\n",
        'sed -n "${SLURM_ARRAY_TASK_ID}p" < /proj/runs.txt | bash\n',
        "xargs -P 8 -n 1 gzip < /proj/files.txt\n",
    ):
        assert found(text, shared_disk=True) == [], text
    # A file given to a program on its stdin is still read; so is sed's own input it edits.
    assert found("pw.x < /proj/scf.in\n") == [("data.inputs", "/proj/scf.in")]
    assert found("sed 's/a/b/' < /proj/in.txt\n") == [("data.inputs", "/proj/in.txt")]
    # (review 1) parallel's --pipe cuts the data itself into blocks, and a line sed picks into
    # a file of its own (not to a shell) is data it read
    for text in (
        "parallel --pipe -N 1000 wc -l < /lake/big.txt\n",
        'sed -n "${SLURM_ARRAY_TASK_ID}p" < /lake/big.txt > one.fa\n',
    ):
        assert found(text, shared_disk=True) == [("data.inputs", "/lake/big.txt")], text


def test_the_raw_data_folder_handed_to_a_program_is_read_whatever_the_option():
    text = "python prep.py --ngsim_dir data/raw/ngsim --src $ROOT/datasets/raw/x.csv --k raw\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "data/raw/ngsim"),
        ("data.inputs", "$ROOT/datasets/raw/x.csv"),
    ]
    # Not where the program writes, nor a raw folder that is not a data folder's.
    assert found("python prep.py --out_dir data/raw/x --logs raw/x\n", shared_disk=True) == [
        ("output.artifacts", "data/raw/x")
    ]
    # (review) nor where a download lands, by the option's name or the program's
    for text in (
        "python fetch.py --download-dir data/raw\n",
        "python download_data.py --data_root data/raw\n",
        "bash download.sh --root data/raw\n",
        "python get.py --to data/raw\n",
        "python get.py --into data/raw/a\n",
        "python get.py --dst data/raw\n",
    ):
        assert found(text, shared_disk=True) == [], text


def test_a_model_folder_training_files_and_more_output_spellings():
    text = (
        "python -m sglang.launch_server --model-path /n/models/glm-4 --port 30000 &\n"
        "python run_clm.py --train_file /lustre/c/train.jsonl --validation_file "
        "/lustre/c/val.jsonl --dataset_path /lustre/d --data_dir /lustre/e "
        "--out_dir /lustre/runs/a --results-dir /lustre/runs/b\n"
    )
    assert found(text) == [
        ("data.inputs", "/n/models/glm-4"),
        ("data.inputs", "/lustre/c/train.jsonl"),
        ("data.inputs", "/lustre/c/val.jsonl"),
        ("data.inputs", "/lustre/d"),
        ("data.inputs", "/lustre/e"),
        ("output.artifacts", "/lustre/runs/a"),
        ("output.artifacts", "/lustre/runs/b"),
    ]


def test_keys_handed_to_the_program_are_credentials_by_name_never_by_value():
    text = (
        "python t.py --logger.wandb.key {wandb_token} --hf_token $HF_TOKEN --api-key <KEY>\n"
        "python t.py --api-key sk-live-123\n"
    )
    assert found(text) == [
        ("work.credentials", "wandb_token"),
        ("work.credentials", "HF_TOKEN"),
        ("work.credentials", "KEY"),
    ]


def test_dmtcp_interval_and_yacs_weights_and_output():
    assert found("dmtcp_launch --interval 3600 ./sim\n") == [
        ("request.checkpoint_interval", "3600s")
    ]
    assert found("start_coordinator -i 60\n") == [("request.checkpoint_interval", "60s")]
    text = (
        "python train_net.py --config-file cfg.yaml --opts "
        "MODEL.WEIGHTS detectron2://Mask/137849600/model_final.pkl OUTPUT_DIR /lustre/out "
        "SOLVER.IMS_PER_BATCH 16\n"
    )
    assert found(text) == [
        ("data.inputs", "detectron2://Mask/137849600/model_final.pkl"),
        ("output.artifacts", "/lustre/out"),
    ]


def test_a_health_loop_that_fails_the_job_when_the_server_dies_keeps_it_serving():
    from jobs.jobformat.realtime import ends_serving

    text = (
        "python -m sglang_router.launch_router --port 39876 --host 0.0.0.0 &\n"
        "while true; do\n"
        '  if ! curl -s "http://localhost:39876/health"; then\n'
        "    exit 1\n"
        "  fi\n"
        "  sleep 300\n"
        "done\n"
    )
    assert ends_serving(text)
    # A loop the script leaves when the work is done ends it.
    assert not ends_serving(text.replace("exit 1", "exit 0"))


def test_an_image_pulled_then_run_and_a_container_that_only_prints_a_version():
    setup = "export APPTAINER_CACHEDIR=/tmp\napptainer pull docker://python:3.9-slim\ndf -h\n"
    run = "apptainer exec python_3.9-slim.sif python --version\n"
    pulled = {}
    assert found(setup, pulled=pulled) == [("data.no_inputs", True)]
    assert found(run, pulled=pulled) == [
        ("work.image", "python:3.9-slim"),
        ("data.no_inputs", True),
    ]
    # A named image file, and a program of the job's own in the container, which reads.
    text = "singularity pull img.sif docker://nvcr.io/nvidia/pytorch:24.05\nsingularity exec img.sif python t.py\n"
    assert found(text) == [("work.image", "nvcr.io/nvidia/pytorch:24.05")]


def test_hub_downloads_with_options_before_the_repository():
    text = "huggingface-cli download --local-dir /tmp/gen $GEN\nhf upload --repo-type dataset org/out ./o\n"
    assert found(text, variables={"GEN": "deepseek-ai/R1-8B"}) == [
        ("data.inputs", "hf://deepseek-ai/R1-8B"),
        ("output.artifacts", "hf://datasets/org/out"),
    ]


def test_the_model_a_server_is_started_with_and_a_result_file_on_the_cluster():
    assert found("vllm serve $MODEL --tensor-parallel-size 8\n", variables={"MODEL": "org/k2"}) == [
        ("data.inputs", "hf://org/k2")
    ]
    text = "spark-submit app.py > result_${SLURM_JOB_ID}.out\nsrun t 2>&1 | tee train.log\n"
    # Kept on the cluster's shared disk, a result file is an output; a log is the console.
    assert found(text, shared_disk=True) == [("output.artifacts", "result_${SLURM_JOB_ID}.out")]
    assert found(text) == []


def test_the_output_of_the_jobs_own_program_or_a_profiler_and_a_tokenizer_by_hub_id():
    text = (
        "python scripts/convert.py -o /scratch/p1/bench/\n"
        "kernprof -o ${SLURM_JOBID}.lprof -l mnist.py --epochs=3\n"
        "wget -o fetch.log https://example.org/x.tar\n"
        "python -m sglang.launch_server --model-path org/m --tokenizer-path org/tok\n"
    )
    assert found(text) == [
        ("output.artifacts", "/scratch/p1/bench/"),
        ("output.artifacts", "${SLURM_JOBID}.lprof"),
        ("data.inputs", "https://example.org/x.tar"),
        ("data.inputs", "hf://org/m"),
        ("data.inputs", "hf://org/tok"),
    ]


def test_options_of_the_launcher_and_the_programs_own_files_are_not_data():
    text = (
        "srun --container-mounts=/lustre/p:/p,/lustre/d:/d --chdir=/p/run "
        "python /p/train.py --wandb_dir /d/wandb --config /d/c.yaml --shards /d/s\n"
    )
    assert found(text) == [
        # the mount holding the program the container runs is the code
        ("work.code", "/lustre/p"),
        ("data.inputs", "/lustre/d/s"),
    ]


def test_diffusers_and_fine_tuning_spellings_of_the_model_and_the_data():
    text = (
        "accelerate launch train_dreambooth.py "
        "--pretrained_model_name_or_path=org/sdxl --instance_data_dir=/lustre/dog "
        "--train_data_dir /lustre/pics --base_model org/llama --input_path /lustre/in.jsonl\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://org/sdxl"),
        ("data.inputs", "/lustre/dog"),
        ("data.inputs", "/lustre/pics"),
        ("data.inputs", "hf://org/llama"),
        ("data.inputs", "/lustre/in.jsonl"),
    ]


def test_a_tokenizer_given_by_name_or_path_is_read_in_the_order_the_line_gives():
    text = (
        "python tokenize.py \\\n    --tokenizer_name_or_path /l/tok \\\n"
        "    --dataset_path /l/corpus \\\n    --output_path /l/ids\n"
    )
    assert found(text) == [
        ("data.inputs", "/l/tok"),
        ("data.inputs", "/l/corpus"),
        ("output.artifacts", "/l/ids"),
    ]
    assert found("python t.py --tokenizer-name-or-path org/tok\n") == [
        ("data.inputs", "hf://org/tok")
    ]


def test_a_model_the_job_makes_is_not_a_model_it_reads():
    text = "OUTPUT_MODEL_DIR=/lustre/out/m\nREWARD_MODEL_PATH=/lustre/rm\nsrun python t.py\n"
    assert found(text) == [("data.inputs", "/lustre/rm")]


def test_checkpoint_options_are_read_by_one_reader_for_both_importers():
    # the names Megatron, fairseq and most trainers give the place they save to
    assert found("python t.py --save /ckpt/gpt --save-interval 1000\n") == [
        ("request.checkpoint_location", "/ckpt/gpt")
    ]
    assert found("python t.py --checkpoint-folder=s3://b/ckpt\n") == [
        ("request.checkpoint_location", "s3://b/ckpt")
    ]
    # (fairseq-train's first argument is the data folder it reads)
    assert found("fairseq-train data-bin --save-dir checkpoints/run1\n") == [
        ("data.inputs", "data-bin"),
        ("request.checkpoint_location", "checkpoints/run1"),
    ]
    # a value a command computes is kept as the script writes it
    assert found("CKPT=$(pwd)/ckpt\npython t.py --ckpt_dir $CKPT\n") == [
        ("request.checkpoint_location", "$CKPT")
    ]
    # a run's name, the node's own disk and a converted model are no checkpoint place
    assert found("python t.py --save run-42\n") == [
        ("remark", "--save run-42: a name for the run, not a place.")
    ]
    assert found("python t.py --checkpoint-dir /tmp/ckpt\n") == []
    assert found("python convert.py --output_checkpoint_dir /lustre/m\n") == []
    # --save_path names the final model as often, unless the line says how often it saves
    assert found("python t.py --save_path /lustre/m.pt\n") == [("output.artifacts", "/lustre/m.pt")]
    assert found("python t.py --save_path /lustre/c --save_every 500\n") == [
        ("request.checkpoint_location", "/lustre/c")
    ]


def test_options_named_checkpoint_folder_or_path_are_the_checkpoint_place():
    # a folder named by the option's name, with a flag that continues from it: resumption
    assert found("python fit.py --checkpoint_foldername 3 --continue_training True\n") == [
        ("request.checkpoint_location", "3"),
        ("request.preemptible", True),
    ]
    assert found("python fit.py --ckpt_folder /l/fit --resume\n") == [
        ("request.checkpoint_location", "/l/fit"),
        ("request.preemptible", True),
    ]
    assert found("python fit.py --ckpt_folder /l/fit --continue_training False\n") == [
        ("request.checkpoint_location", "/l/fit")
    ]
    # a path option is the place only where the line saves or resumes; else it may be a load
    assert found("python fit.py --checkpoint-path /l/fit --resume true\n") == [
        ("request.checkpoint_location", "/l/fit"),
        ("request.preemptible", True),
    ]
    assert found("python fit.py --checkpoint_path /l/fit --checkpoint_every 200\n") == [
        ("request.checkpoint_location", "/l/fit")
    ]
    # (a file of weights it only loads is no place: it is the model the step reads)
    assert found("python score.py --checkpoint_path /l/fit/best.ckpt\n") == [
        ("data.inputs", "/l/fit/best.ckpt")
    ]
    assert found("python score.py --checkpoint /l/fit/best.ckpt --resume\n") == []


def test_the_same_checkpoint_option_reads_alike_in_sbatch_and_skypilot():
    script = "python t.py --save-dir /lustre/ckpt/run1 --data-path /lustre/d\n"
    [sbatch] = jobformat.import_text(f"#!/bin/bash\n#SBATCH -N 1\n{script}")
    [sky] = jobformat.import_text(f"resources:\n  accelerators: A100:1\nrun: |\n  {script}")
    assert sbatch.description.request.checkpoint_location == "/lustre/ckpt/run1"
    assert sky.description.request.checkpoint_location == "/lustre/ckpt/run1"


def test_resuming_from_where_the_job_saves_is_resumption_another_path_says_nothing():
    text = "python t.py --output_dir /l/out --save_steps 500 --resume_from_checkpoint /l/out\n"
    assert ("request.preemptible", True) in found(text)
    text = "python t.py --checkpoint_dir /l/c --resume_from_checkpoint true\n"
    assert ("request.preemptible", True) in found(text)
    text = "python t.py --output_dir /l/out --save_steps 500 --resume_from_checkpoint /l/base\n"
    assert ("request.preemptible", True) not in found(text)
    text = "python t.py --checkpoint-dir /l/c --resume_from_checkpoint --lr 1e-4\n"
    assert ("request.preemptible", True) in found(text)  # a flag alone
    assert ("request.preemptible", True) in found("fit.py --save-dir /l/c --ckpt_path last\n")
    assert ("request.preemptible", True) in found("t.py --save-dir /l/c --resume /l/c\n")
    assert ("request.preemptible", True) not in found("t.py --save-dir /l/c --resume /l/old\n")


def test_a_trainers_checkpoint_from_its_own_place_in_options_set_in_one_branch_resumes():
    text = (
        "OUT=/s/ckpt/run7\n"
        'LATEST=$(ls -d "$OUT"/checkpoint-* | tail -1)\n'
        'ARG=""\n'
        'if [ -n "$LATEST" ]; then\n  ARG="--checkpoint ${OUT}/checkpoint-${LATEST}"\nfi\n'
        "torchrun -m lab.train.pretrain ${ARG} --output_dir ${OUT} --save_interval 1000\n"
    )
    assert found(text) == [
        ("request.preemptible", True),
        ("request.checkpoint_location", "/s/ckpt/run7"),
    ]
    # a trainer's checkpoint from elsewhere is where it starts, no resumption (and not read)
    text = text.replace('ARG="--checkpoint ${OUT}', 'ARG="--checkpoint /s/base')
    assert found(text) == [("request.checkpoint_location", "/s/ckpt/run7")]


def test_resuming_from_a_checkpoint_file_inside_the_place_the_job_saves_is_resumption():
    text = "python pt.py --ckpt-dir /s/run/ckpt --resume /s/run/ckpt/last.pt\n"
    assert ("request.preemptible", True) in found(text)
    # a file beside the place, not in it, is a checkpoint it starts from
    text = "python pt.py --ckpt-dir /s/run/ckpt --resume /s/run/ckpt-old/last.pt\n"
    assert ("request.preemptible", True) not in found(text)


def test_a_program_making_up_its_data_and_load_tests_read_nothing():
    for text in (
        "srun torchrun --nproc_per_node 8 train.py --synthetic --steps 100\n",
        "python main.py -a resnet50 --dummy --epochs 1\n",
        "srun python pretrain_gpt.py --mock-data --train-iters 10\n",
        "srun stress-ng --cpu 8 --timeout 60\n",
        "mpirun -np 2 osu_allreduce\n",
    ):
        assert found(text) == [("data.no_inputs", True)], text
    # without the flag the program's own data is unknown; with a model it reads the model
    assert found("python main.py -a resnet50 --epochs 1\n") == []
    assert found("python bench.py --model org/m --mock-data\n") == [("data.inputs", "hf://org/m")]


def test_hub_repositories_fetched_by_torchtune_litgpt_or_git_are_inputs_not_outputs():
    text = (
        "tune download meta-llama/Llama-3.1-8B --output-dir /lustre/m --hf-token $HF_TOKEN\n"
        "litgpt download mistralai/Mistral-7B-v0.1\n"
        "git lfs clone https://huggingface.co/datasets/tatsu-lab/alpaca\n"
        "git clone https://huggingface.co/org/model.git weights && python run.py --w weights/x\n"
        "tune run lora_finetune --config c.yaml checkpointer.checkpoint_dir=/lustre/m\n"
    )
    assert found(text) == [
        ("work.credentials", "HF_TOKEN"),
        ("data.inputs", "hf://meta-llama/Llama-3.1-8B"),
        ("data.inputs", "hf://mistralai/Mistral-7B-v0.1"),
        ("data.inputs", "hf://datasets/tatsu-lab/alpaca"),
        ("data.inputs", "hf://org/model"),
    ]  # the download's folder is a copy of the model it reads: no output, no checkpoint
    assert commands.code_from_clones([(text, "", 1)]) == []
    assert found("python t.py trainer.checkpoint_dir=/tmp/c\n") == []  # the node's own disk


def test_result_files_and_folders_a_program_is_given_are_outputs():
    text = (
        "RESULTS_DIR=/project/run7\n"
        "python eval.py --output_file /project/preds.jsonl --outdir /project/plots\n"
        "python fit.py --default_root_dir /project/lightning\n"
        "tune run full_finetune --config c.yaml output_dir=/project/tuned\n"
    )
    assert found(text) == [
        ("output.artifacts", "/project/run7"),
        ("output.artifacts", "/project/preds.jsonl"),
        ("output.artifacts", "/project/plots"),
        ("output.artifacts", "/project/lightning"),
        ("output.artifacts", "/project/tuned"),
    ]
    # OUTDIR is left out: scripts as often keep a scratch copy there that is moved on after
    assert found("OUTDIR=/scratch/x\n") == []


def test_more_spellings_of_the_model_and_data_a_program_is_given():
    text = (
        "python t.py --dataset_id org/ds --hf_model org/m --tokenizer-name-or-path org/tok\n"
        "python t.py --val_data /l/val --test_file /l/test.jsonl --init_checkpoint /l/bert\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://datasets/org/ds"),
        ("data.inputs", "hf://org/m"),
        ("data.inputs", "hf://org/tok"),
        ("data.inputs", "/l/val"),
        ("data.inputs", "/l/test.jsonl"),
        ("data.inputs", "/l/bert"),
    ]
    # a Hub-only option given a file name says nothing (yolov5's --weights yolov5s.pt)
    assert found("python t.py --pretrained resnet50 --weights yolov5s.pt\n") == []


def test_an_output_folder_saved_into_every_n_steps_holds_the_checkpoints():
    text = "python run.py --output_dir=/l/results --num_steps_per_checkpoint=2500\n"
    assert found(text) == [("request.checkpoint_location", "/l/results")]
    text = "python run.py --output_dir /l/results --checkpoint_every 0\n"
    assert found(text) == [("output.artifacts", "/l/results")]  # saving turned off


def test_a_file_a_program_reads_on_its_input_is_read():
    text = "srun g16 < water.com > water.log\npython a.py < /lustre/in.txt\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "water.com"),
        ("data.inputs", "/lustre/in.txt"),
    ]
    for text in (
        "readarray X < <(find .)\n",
        "cat <<EOF\nx\nEOF\n",
        "while read l; do echo $l; done < tasks.txt\n",
        "python - < /dev/null\n",
    ):
        assert not [p for p in found(text) if p[0] == "data.inputs"], text


def test_a_deck_a_simulation_program_is_given_by_option_is_read_as_from_stdin():
    text = (
        "srun lmp_mpi -in in.melt -var T 300 -log none\n"
        "mpirun -np 64 pw.x -nk 4 -inp $WORK/scf.in > scf.out\n"
        "srun cp2k.psmp -i md.inp -o md.out\n"
        "ph.x -input ph.in\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "in.melt"),
        ("data.inputs", "$WORK/scf.in"),
        ("data.inputs", "md.inp"),
        ("data.inputs", "ph.in"),
    ]
    # Another program's -i (an interval, an index) is not a deck.
    for text in ("python fit.py -i 5\n", "lmp -sf gpu -pk gpu 1\n", "iostat -x -i 2\n"):
        assert not [p for p in found(text) if p[0] == "data.inputs"], text


def test_a_deck_handed_to_a_program_run_from_a_path_is_read():
    text = (
        "./quake quake.in &> quake.log\n"
        "mpirun -np 4 ./sim run.inp > sim.out\n"
        "srun bin/wave $WORK/case.in\n"
        "pw.x scf.in\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "quake.in"),
        ("data.inputs", "run.inp"),
        ("data.inputs", "$WORK/case.in"),
        ("data.inputs", "scf.in"),
    ]
    # A tool handling the file (sed, cp, make), a Python program's argument, a deck the job
    # wrote itself: not a deck the simulation reads.
    for text in (
        "sed -i s/T/300/ run.in\n",
        "cp /templates/run.in .\n",
        "make -f Makefile.in\n",
        "python fit.py data.in\n",
        "echo x > a.in\n./sim a.in\n",
    ):
        assert not [p for p in found(text, shared_disk=True) if p[0] == "data.inputs"], text


def test_options_kept_in_a_one_line_array_are_read_where_they_are_set():
    text = 'ARGS=(--save /lustre/ck --data-path /lustre/d)\nsrun python t.py "${ARGS[@]}"\n'
    assert found(text) == [
        ("request.checkpoint_location", "/lustre/ck"),
        ("data.inputs", "/lustre/d"),
    ]
    assert found("declare -a A=(--ckpt-dir /l/c)\nARGS+=(--input /l/i)\n") == [
        ("request.checkpoint_location", "/l/c"),
        ("data.inputs", "/l/i"),
    ]
    assert found("NODES=( $(scontrol show hostnames) )\n") == []  # a command's output


def test_an_element_of_an_array_whose_elements_are_all_the_same_is_that_value():
    text = (
        "model=('heron-lab/chat-13b' 'heron-lab/chat-13b' 'heron-lab/chat-13b')\n"
        "out=('./ck/v1' './ck/v2' './ck/v3')\n"
        "deepspeed t.py --model_name_or_path ${model[${SLURM_ARRAY_TASK_ID}]} --bf16 True\n"
    )
    assert found(text) == [("data.inputs", "hf://heron-lab/chat-13b")]
    # elements that differ are the run's to choose: kept as written
    text = text.replace("chat-13b' 'heron", "chat-13b' 'other")
    assert found(text) == [("data.inputs", "${model[${SLURM_ARRAY_TASK_ID}]}")]


def test_a_command_line_kept_in_a_variable_the_script_cannot_expand_is_read_where_written():
    text = (
        "CHECKPOINT_PATH=checkpoints/gpt2\n"
        'export CMD=" \\\n    `pwd`/pretrain_gpt.py \\\n    --save $CHECKPOINT_PATH \\\n'
        '    --load $CHECKPOINT_PATH \\\n    --data-path /lustre/d \\\n    "\n'
        'srun bash -c "$LAUNCHER --node_rank \\$SLURM_PROCID $CMD" 2>&1 | tee -a log.txt\n'
    )
    assert found(text) == [
        ("request.checkpoint_location", "checkpoints/gpt2"),
        ("data.inputs", "/lustre/d"),
    ]  # (a relative --load may be a Hub id: no pair, so no resumption stated)


def test_a_file_a_step_of_the_job_writes_is_not_an_input_of_a_later_one():
    text = (
        "TRAIN_DATA_PATH=$REPO/data/train-splits.txt\n"
        "python load_ratios.py --split train --output-meg-ds-ratio-file $TRAIN_DATA_PATH\n"
        "python pretrain.py --train-weighted-split-paths-path $TRAIN_DATA_PATH --data-path /l/d\n"
    )
    assert found(text) == [("data.inputs", "/l/d")]


def test_a_variable_naming_the_model_by_hub_id_is_read_one_the_job_makes_or_serves_as_is_not():
    text = "MODEL_NAME=org/m\nEMBED_MODEL_ID=org/e\nHF_UPLOAD_MODEL_NAME=org/x\n"
    text += "SERVED_MODEL_NAME=org/y\nMODEL_NAME_SHORT=gpt2\n"
    assert found(text) == [("data.inputs", "hf://org/m"), ("data.inputs", "hf://org/e")]


def test_checkpoint_places_in_configuration_overrides():
    for text, place in (
        ("composer train.py yamls/mpt.yaml save_folder=s3://team-ckpt/mpt", "s3://team-ckpt/mpt"),
        ("python t.py checkpoint.dir=/l/c", "/l/c"),
        ("python t.py exp_manager.exp_dir=/l/e", "/l/e"),
    ):
        assert found(text + "\n") == [("request.checkpoint_location", place)]
    assert found("tune run x checkpoint_dir=/tmp/x\n") == []  # the node's own disk


def test_a_folder_linked_in_as_the_programs_data_folder_is_an_input():
    assert found("DATA_DIR=/lustre/corpus\nln -sfn ${DATA_DIR} data\npython train.py\n") == [
        ("data.inputs", "/lustre/corpus")
    ]
    assert found("ln -s /scratch/imagenet ./datasets/\n") == [("data.inputs", "/scratch/imagenet")]
    # The command after it on the same line is read too.
    assert found("ln -s /l/corpus data && python t.py --save /l/ck\n") == [
        ("data.inputs", "/l/corpus"),
        ("request.checkpoint_location", "/l/ck"),
    ]
    # A link under another name, or to a folder the script cannot name, says nothing.
    assert found("ln -sfn /lustre/out results\nln -s $(pwd)/x data\nln -s $UNSET data\n") == []


def test_a_mount_named_for_what_its_program_loads_is_an_input_unless_the_program_uses_it():
    packages = "srun --container-image=img --container-mounts=/lustre/pkgs:/srv/packages node src\n"
    assert found(packages) == [("data.inputs", "/lustre/pkgs")]
    # A path in it the command names says what the program does with the mount: not read here.
    through = (
        "srun --container-image=img --container-mounts=/lustre/w:/models "
        "python t.py --save /models/run1\n"
    )
    assert ("data.inputs", "/lustre/w") not in found(through)
    assert ("data.unclassified", "/models -> /lustre/w") in found(through)
    # A host folder whose own name holds the container's does not count as a use of it.
    named = "srun --container-image=i --container-mounts=/lustre/models:/models python t.py\n"
    assert found(named) == [("data.inputs", "/lustre/models")]
    # A folder named for nothing in particular stays unclassified.
    assert ("data.unclassified", "/work -> /lustre/x") in found(
        "srun --container-image=img --container-mounts=/lustre/x:/work python t.py\n"
    )


def test_llm_c_trainers_single_letter_checkpoint_folder_and_resumption():
    line = "srun ./train_gpt2cu -i /l/train.bin -o /lustre/log124M -n 5000 -y 1 -e d12\n"
    assert ("request.checkpoint_location", "/lustre/log124M") in found(line)
    assert ("request.preemptible", True) in found(line)
    # No checkpoints saved (-n 0), or another program's -o: no checkpoint place.
    assert not any(
        path == "request.checkpoint_location"
        for path, _ in found(line.replace("-n 5000", "-n 0"))
        + found("srun ./train -o /lustre/out -n 5000 -y 1\n")
    )
    found("./train_gpt2cu -o /l/o -n " + "9" * 5000 + "\n")  # a huge count is no error
    # A bare folder name is a folder in the working directory.
    line = './train_gpt2cu -i "dev/data/fw_train_*.bin" -o log124M -n 5000 -v 250\n'
    assert ("request.checkpoint_location", "log124M") in found(line)
    assert ("request.preemptible", True) not in found(line)


def test_rclone_reads_its_remote_side_and_the_local_copy_is_what_the_job_makes():
    text = (
        "cd /lustre/proj/maps\n"
        "rclone --include '*.nc' --transfers 8 copy archive:survey/tiles tiles\n"
        "rclone sync /lustre/proj/maps/out backup:survey/results\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "archive:survey/tiles"),
        ("output.artifacts", "/lustre/proj/maps/tiles"),
        # (no step of the job wrote `out`: the job sends away data it did not make)
        ("data.inputs", "/lustre/proj/maps/out"),
        ("output.artifacts", "backup:survey/results"),
    ]
    # A value that is not a remote (no `name:`) is no data read.
    assert found("rclone copy /a/b /c/d\n", shared_disk=True) == []


def test_an_rclone_remote_the_script_defines_is_read_at_its_endpoint():
    # (a cloud VM: remotes from the user's own rclone config stay unread there)
    text = (
        "rclone config create pod s3 provider=Ceph endpoint=https://store.fjord.example/ "
        'access_key_id="$K" secret_access_key="$S"\n'
        "rclone config create aws-src s3 provider=AWS env_auth=true\n"
        "rclone copy --progress pod:fjord-pub/scans/v2/ ~/data --transfers=32\n"
        "rclone copy aws-src:fjord-runs/eval ~/runs\n"
        'for P in "${PATHS[@]}"; do rclone copy pod:${P}/ ~/data/x; done\n'
        "python segment.py --data ~/data\n"
    )
    assert found(text) == [
        ("data.inputs", "https://store.fjord.example/fjord-pub/scans/v2"),
        ("data.inputs", "s3://fjord-runs/eval"),
    ]
    # A remote the script does not define is not read as a place on a cloud VM.
    text = "rclone copy vault:scans/raw ~/data\npython s.py --data ~/data\n"
    assert not [v for _, v in found(text) if "vault" in v or "://" in v]


def test_a_mount_of_the_submit_directory_kept_in_a_variable_is_the_code():
    run = " exec --bind {0}:{0} /p/env.sif python tools/embed.py\n"
    for setting in ("here=$(pwd)", "here=`pwd`", 'export here="$(pwd)"'):
        text = f"{setting}\nsrun apptainer" + run.format("${here}")
        assert found(text) == [("work.code", "$PWD"), ("work.image", "/p/env.sif")], setting
    # a variable set to another folder is a mount like any other
    text = "here=/lustre/p\nsrun apptainer" + run.format("${here}")
    assert ("data.unclassified", "/lustre/p -> /lustre/p") in found(text)


def test_an_image_run_as_the_command_itself_is_the_container_image():
    assert found("./solver.sif --mesh m.msh\n") == [("work.image", "./solver.sif")]
    assert found("srun /p/imgs/solver.sqsh\n") == [("work.image", "/p/imgs/solver.sqsh")]
    # an image copied or listed is not run
    assert found("cp /p/imgs/solver.sif .\nls *.simg\n") == []


def test_a_downloads_local_copy_is_staging_unless_the_job_only_downloads():
    # A job that downloads and then works on the copy: the remote is the input, the copy is
    # staging, whichever tool copies.
    for copy in ("aws s3 cp --recursive s3://fjord-scans/raw", "rclone copy fjord:scans/raw"):
        text = f"{copy} /lustre/fjord/raw\npython segment.py --data /lustre/fjord/raw\n"
        assert found(text, shared_disk=True) == [("data.inputs", copy.split()[-1])]
    # A job that only downloads makes the copy, kept on the shared disk: its output.
    text = "DEST=/lustre/fjord/mirror/\nmodule load aws\naws s3 sync s3://fjord-scans $DEST\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "s3://fjord-scans"),
        ("output.artifacts", "/lustre/fjord/mirror/"),
    ]
    # On a cloud VM, or on the node's own disk, the copy goes with the machine.
    assert found(text.replace("/lustre", "/tmp"), shared_disk=True) == [
        ("data.inputs", "s3://fjord-scans")
    ]
    assert found(text) == [("data.inputs", "s3://fjord-scans")]


def test_files_fetched_into_the_folder_the_job_changed_into():
    # A job that only fetches, under the files' own names, into a folder it changed into
    # (relative or not, after `mkdir -p d &&`): the folder is what it makes.
    for fetch in ("wget https://tide.example.org/a.nc", "curl -LJO https://tide.example.org/a.nc",
                  "gdown https://drive.example.com/uc?id=7Qx"):  # fmt: skip
        text = f"mkdir -p tides && cd tides || exit 1\n{fetch}\n"
        url = fetch.split()[-1]
        assert found(text, shared_disk=True) == [
            ("data.inputs", url),
            ("output.artifacts", "tides"),
        ], fetch
    # Saved elsewhere, curl to its output stream, a later step using it, a cloud VM: no output.
    for fetch in ("wget -O a.nc https://tide.example.org/a.nc",
                  "curl -L https://tide.example.org/a.nc",
                  "wget https://tide.example.org/a.nc\npython fit.py --data tides"):  # fmt: skip
        text = f"cd tides\n{fetch}\n"
        assert ("output.artifacts", "tides") not in found(text, shared_disk=True), fetch
    assert ("output.artifacts", "tides") not in found("cd tides\nwget https://t.example.org/a\n")
    # An FTP server's file is fetched data too.
    assert found("cd /lake/tides\nwget ftp://ftp.example.org/pub/a.nc\n", shared_disk=True) == [
        ("data.inputs", "ftp://ftp.example.org/pub/a.nc"),
        ("output.artifacts", "/lake/tides"),
    ]


def test_options_naming_a_directory_of_data_read_and_of_results():
    text = "python make.py --raw_data_directory /lake/raw --output_directory /lake/made.pt\n"
    assert found(text) == [
        ("data.inputs", "/lake/raw"),
        ("output.artifacts", "/lake/made.pt"),
    ]


def test_an_uploads_local_side_is_read_unless_an_earlier_step_wrote_it():
    # A backup: the job only sets its place up, then sends data it did not make.
    text = "SRC=$1\nmodule load rclone\nrclone copy --checksum ${SRC}.tar vault:backups/\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "${SRC}.tar"),
        ("output.artifacts", "vault:backups/"),
    ]
    assert found("aws s3 sync $archive s3://fjord-vault/raw\n") == [
        ("data.inputs", "$archive"),
        ("output.artifacts", "s3://fjord-vault/raw"),
    ]
    # What a step of the job wrote, named or not, is its own: staged, not read.
    for before in ("python segment.py\n", "tar -czf /lustre/fjord/out.tgz maps\n"):
        text = before + "gsutil cp /lustre/fjord/out.tgz gs://fjord-vault/\n"
        assert ("data.inputs", "/lustre/fjord/out.tgz") not in found(text, shared_disk=True)
    # (the node's own disk holds only what the job put there)
    assert found("aws s3 cp $TMPDIR/x s3://fjord-vault/x\n") == [
        ("output.artifacts", "s3://fjord-vault/x")
    ]


def test_a_job_that_requeues_itself_is_preemptible_without_a_checkpoint_place():
    text = (
        "on_term() {\n"
        "  echo 'stopping'\n"
        '  scontrol requeue "$SLURM_JOB_ID"\n'
        "}\n"
        "trap on_term SIGTERM\n"
        "python simulate.py\n"
    )
    assert ("request.preemptible", True) in found(text, shared_disk=True)
    # Requeuing another job (a number, a variable of its own) says nothing about this one.
    other = found("scontrol requeue 4242\nscontrol requeue $OTHER\npython simulate.py\n")
    assert ("request.preemptible", True) not in other


def test_setting_the_machine_up_reads_no_data():
    def quiet(text):
        return ("data.no_inputs", True) in found(text)

    assert quiet("source .venv/bin/activate\necho ready\n")
    assert quiet(
        "curl -LsSf https://example.org/tool/install.sh | sh\nuv python install 3.12\nhostname\n"
    )
    assert quiet("git clone https://example.org/lab/tools.git\ncd tools\nmake all\nnvidia-smi\n")
    assert not quiet("source .venv/bin/activate\npython fit.py\n")
    assert not quiet("source run_everything.sh\necho done\n")  # a script of the job's own


def test_a_skypilot_task_whose_setup_only_installs_and_whose_run_only_checks_reads_nothing():
    task = (
        "resources:\n  accelerators: L4:1\n"
        "workdir: .\n"
        "setup: |\n  pip install uv\n  uv sync && source .venv/bin/activate\n"
        "  git clone https://example.org/lab/kit.git\n  cd kit\n  make\n"
        "run: |\n  source .venv/bin/activate\n  nvidia-smi\n  echo up\n"
    )
    (result,) = jobformat.import_text(task.encode(), filename="probe.yaml")
    assert result.description.to_data()["data"].get("no_inputs") is True
    # A run that starts the job's own program may read anything.
    (result,) = jobformat.import_text(
        task.replace("echo up", "python fit.py").encode(), filename="probe.yaml"
    )
    assert not result.description.to_data().get("data", {}).get("no_inputs")


def test_options_named_for_an_output_place_are_outputs_and_a_save_interval_makes_them_checkpoints():
    text = (
        "python export.py --eval_output_path /lustre/evals/r1 --artifact-dir runs/probe\n"
        "python fit.py --output_model_dir /lustre/ckpt/m1 --save_interval 500\n"
        "python fit.py --output_log_dir /lustre/logs --output_name final\n"
    )
    assert found(text, shared_disk=True) == [
        ("output.artifacts", "/lustre/evals/r1"),
        ("output.artifacts", "runs/probe"),
        ("request.checkpoint_location", "/lustre/ckpt/m1"),
    ]


def test_options_named_for_what_the_program_reads_are_inputs_when_they_name_a_path():
    text = (
        "python fit.py --input_vocab_file /lustre/tok/spm.model --dataset_base_path /lustre/imgs\n"
        "python fit.py --train_data_dir $HOME/shards --data_format_version 2\n"
        # a bare --input_dir names where a step writes as often; settings files and the node's
        # own disk are not data
        "python fit.py --input_dir /lustre/stage --data_mix_file mix.yaml --eval_data_dir /tmp/x\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/tok/spm.model"),
        ("data.inputs", "/lustre/imgs"),
        ("data.inputs", "$HOME/shards"),
    ]


def test_picard_style_key_values_and_a_scripts_arguments_kept_by_name():
    text = (
        "SAMPLE=$1\n"
        "aligner run ref.fa reads.fq > $SAMPLE.raw.bam\n"
        "java -jar tools/sorter.jar INPUT=$SAMPLE.raw.bam OUTPUT=$SAMPLE.sorted.bam SORT_ORDER=x\n"
        "java -jar tools/dedup.jar I=$SAMPLE.sorted.bam O=$SAMPLE.final.bam M=$SAMPLE.stats.txt\n"
    )
    # the files an earlier step wrote are the job's own; names and orders are not files
    assert found(text, shared_disk=True) == [
        ("output.artifacts", "$SAMPLE.sorted.bam"),
        ("output.artifacts", "$SAMPLE.final.bam"),
        ("output.artifacts", "$SAMPLE.stats.txt"),
    ]
    assert found("java -jar t.jar INPUT=/lustre/in.vcf OUTPUT=out\n") == [
        ("data.inputs", "/lustre/in.vcf")
    ]


def sky_data(text):
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    data = result.description.to_data()
    inputs = [i["location"] for i in (data.get("data") or {}).get("inputs") or []]
    outputs = [a.get("destination") for a in (data.get("output") or {}).get("artifacts") or []]
    return inputs, outputs


def test_a_place_setup_fills_and_the_run_reads_is_the_runs_input_not_an_output():
    built = (
        "resources:\n  accelerators: A100:1\n"
        "setup: |\n  python tools/prepare_corpus.py --output_dir $HOME/corpora/wiki\n"
        "run: |\n  CORPUS=$HOME/corpora/wiki/\n  DATA_DIR=$CORPUS\n  python fit.py --epochs 3\n"
    )
    assert sky_data(built) == (["$HOME/corpora/wiki"], [])
    # linked into the working directory under the name the program looks in
    linked = (
        'setup: |\n  D=/pvc/shards\n  python build.py --output-dir "$D"\n'
        '  ln -sfn "$D" data/shards\nrun: |\n  python fit.py\n'
    )
    assert sky_data(linked) == (["/pvc/shards"], [])
    # a place the run never reads again stays an output
    kept = "run: |\n  python build.py --output-dir /pvc/shards\n  python fit.py\n"
    assert sky_data(kept) == ([], ["/pvc/shards"])
    # a step that names its source copies it: the source is the input, the place its copy
    copied = (
        "setup: |\n  python fetch.py --dataset_name north/raw-text --output_dir /pvc/raw\n"
        "run: |\n  python fit.py --data_dir /pvc/raw\n"
    )
    assert sky_data(copied) == (["hf://datasets/north/raw-text"], [])


def test_a_run_that_only_echoes_after_a_setup_that_installs_reads_nothing():
    def no_inputs(text):
        (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
        return (result.description.to_data().get("data") or {}).get("no_inputs")

    installs = (
        "workdir: .\nfile_mounts:\n  ~/.netrc: ~/.netrc\n"
        'setup: |\n  sh -c "$(curl -fsSL https://tools.example.org/install.sh)" &> /tmp/i.log\n'
        "  sudo chsh -s /bin/zsh me && chmod 0600 ~/.netrc\n  pipenv install --dev\n"
        "run: |\n  echo ready\n  conda env list\n"
    )
    # the user's settings copied in are no data, nor is a bucket mounted and never named
    assert no_inputs(installs) is True
    bucket = "file_mounts:\n  /bkt:\n    source: s3://north-bkt\nrun: |\n  echo hello\n"
    assert no_inputs(bucket) is True
    # a program of the job's own may read anything
    assert no_inputs(installs.replace("echo ready", "python fit.py")) is None


def test_a_bucket_mount_a_trainer_saves_checkpoints_into_is_the_checkpoint_place_only():
    def placed(mount):
        text = (
            f"file_mounts:\n  /store:\n    {mount}\n    mode: MOUNT\n"
            "run: |\n  python tune.py --save_steps 50 --output_dir /store/run-1\n"
        )
        (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
        data = result.description.to_data()
        outputs = [a.get("destination") for a in (data.get("output") or {}).get("artifacts") or []]
        return data["request"].get("checkpoint_location"), outputs

    assert placed("source: s3://north-runs") == ("s3://north-runs", [])
    # a bucket the launcher creates for the task holds what the job hands back
    assert placed("name: north-runs") == ("bucket://north-runs", ["bucket://north-runs"])


def test_a_clone_run_as_a_module_or_cloned_into_the_working_directory_is_the_jobs_code():
    # installed, then its module run by name
    setup = "git clone https://github.com/northwind/segkit.git\npip install -e segkit[ui]\n"
    assert clones(setup, "python -m segkit.serve.app --port 80\n") == [
        "https://github.com/northwind/segkit.git"
    ]
    # cloned into the working directory: the run's programs are the clone's
    here = "git clone https://github.com/northwind/fitter.git .\npip install -e .\n"
    assert clones(here, "accelerate launch recipes/lora/fit.py\n") == [
        "https://github.com/northwind/fitter.git"
    ]
    # only installed, the run's module another package's: still a library
    assert clones(setup, "python -m torch.distributed.run fit.py\n") == []


def inputs_of(text):
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    data = result.description.to_data()
    return [i.get("location") for i in (data.get("data") or {}).get("inputs") or []]


def test_a_repository_fetched_with_git_lfs_and_unpacked_is_the_data_read():
    lfs = "git lfs clone https://github.com/northwind/wind-logs.git"
    unpack = "cd wind-logs\n    tar -xzf logs-2024.tar.gz\n"
    assert inputs_of(f"setup: |\n    {lfs}\n    {unpack}run: python fit.py\n") == [
        "https://github.com/northwind/wind-logs.git"
    ]
    # cloned, its large files pulled, an archive in it unzipped from outside
    pulled = (
        "setup: |\n    git clone https://github.com/northwind/tiles\n    cd tiles\n"
        "    git lfs pull\n    cd ..\n    unzip tiles/set-a.zip\nrun: python fit.py\n"
    )
    assert inputs_of(pulled) == ["https://github.com/northwind/tiles"]
    # not unpacked, or a repository of code whose large files come along: no data read from it
    assert inputs_of(f"setup: |\n    {lfs}\nrun: python fit.py\n") == []
    code = f"setup: |\n    {lfs}\n    {unpack}run: |\n    cd wind-logs\n    python fit.py\n"
    assert inputs_of(code) == []


def test_a_folder_the_program_writes_that_the_script_names_checkpoints_in_is_the_checkpoint_place():
    text = (
        'RUN="out/sweep-3"\nBEST="${RUN}/checkpoints/last"\n'
        'fit --config c.yaml --artifact-dir "${RUN}"\nscore --checkpoint "$BEST"\n'
    )
    assert ("request.checkpoint_location", "out/sweep-3") in found(text)
    assert ("output.artifacts", "out/sweep-3") in found(text)
    # the checkpoint variable never used, or under a folder nothing writes: no reading
    unused = 'RUN="out/sweep-3"\nBEST="${RUN}/checkpoints/last"\nfit --artifact-dir "${RUN}"\n'
    assert "request.checkpoint_location" not in [p for p, _ in found(unused)]
    other = 'RUN="out/sweep-3"\nBEST="${RUN}/checkpoints/last"\nscore --checkpoint "$BEST"\n'
    assert "request.checkpoint_location" not in [p for p, _ in found(other)]


def test_a_container_mount_at_the_same_path_is_code_when_the_program_runs_from_it():
    text = (
        "srun --container-image=nvcr.io#nvidia/pytorch:24.02-py3 "
        '--container-mounts="${SRC}:${SRC},${STORE}:${STORE},/etc/site.conf:/etc/site.conf,'
        '${HERE}:${HERE}" --output=${HERE}/logs/%j.log python ${SRC}/fit.py\n'
    )
    got = found(text)
    assert ("work.code", "${SRC}") in got
    assert ("data.unclassified", "${STORE} -> ${STORE}") in got
    # the host's own files and the folder of the step's log are not data
    assert [v for p, v in got if p == "data.unclassified"] == ["${STORE} -> ${STORE}"]
    assert ("data.unclassified", "/lake -> /lake") in found(
        "apptainer exec -B /lake:/lake box.sif python fit.py\n"
    )


def test_a_program_given_an_output_with_o_reads_what_it_is_given_with_i():
    assert found("python tally.py -i /lake/counts.csv -o /lake/summary.txt\n") == [
        ("output.artifacts", "/lake/summary.txt"),
        ("data.inputs", "/lake/counts.csv"),
    ]
    # no output path, or -i not a path (an interval): nothing read from -i
    assert ("data.inputs", "/lake/counts.csv") not in found("python tally.py -i /lake/counts.csv\n")
    assert "data.inputs" not in [p for p, _ in found("python poll.py -i 30 -o /lake/log.csv\n")]


def test_bwa_mem_reads_its_reference_index_and_its_reads():
    text = (
        'REF=/refs/kiwi\nbwa mem -t 8 -M -R "@RG\\tID:k1" $REF reads/k1_R1.fq.gz reads/k1_R2.fq.gz'
        " | samtools sort -o k1.bam -\n"
    )
    assert [v for p, v in found(text) if p == "data.inputs"] == [
        "/refs/kiwi",
        "reads/k1_R1.fq.gz",
        "reads/k1_R2.fq.gz",
    ]
    # another of bwa's commands (building the index) is not read this way
    assert "data.inputs" not in [p for p, _ in found("bwa index -p kiwi /refs/kiwi.fa\n")]


def test_the_model_an_evaluation_harness_is_given_in_its_model_args_is_read():
    text = (
        "lm_eval --model hf --model_args pretrained=northwind/tern-7b,peft=/adapters/tern,"
        "dtype=bfloat16 --tasks arc_easy --output_path /lake/evals\n"
    )
    assert [v for p, v in found(text) if p == "data.inputs"] == [
        "hf://northwind/tern-7b",
        "/adapters/tern",
    ]
    # inside `bash -c "…"`, its quotes escaped
    quoted = 'srun bash -c "lm_eval --model_args=\\"pretrained=$1,dtype=auto\\" --tasks=x"\n'
    assert ("data.inputs", "$1") in found(quoted)


def test_texts_an_index_or_tokenizer_reads_and_where_a_converter_puts_what_it_made():
    # An index built over a corpus with a Hub encoder; the tokenized copy written elsewhere.
    text = (
        "python -m searchkit.build --corpus /lustre/heron/passages.jsonl \\\n"
        "    --embeddings /lustre/heron/index.faiss --encoder heron-lab/dense-small --batch 32\n"
        "tokcli tokens --documents /lustre/heron/clean --destination /lustre/heron/tok \\\n"
        "    --tokenizer.name_or_path heron-lab/bpe-50k --processes 16\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/heron/passages.jsonl"),
        # the vectors an encoder computes are what it writes
        ("output.artifacts", "/lustre/heron/index.faiss"),
        ("data.inputs", "hf://heron-lab/dense-small"),
        ("data.inputs", "/lustre/heron/clean"),
        ("output.artifacts", "/lustre/heron/tok"),
        ("data.inputs", "hf://heron-lab/bpe-50k"),
    ]
    # Megatron's tokenizer option, given a folder through a variable with a fallback.
    text = "TOK=${TOK:-/store/heron/tokenizer}\npython pretrain.py --tokenizer-model=$TOK\n"
    assert found(text) == [("data.inputs", "/store/heron/tokenizer")]
    # An encoder named by a word (a model class, not a Hub id) says nothing; embeddings given
    # to a program that encodes nothing are as often vectors it reads: left unsaid.
    assert found("python encode.py --encoder bm25\n") == []
    assert found("python classify.py --embeddings /lustre/heron/vectors.txt\n") == []


def test_a_vision_language_models_image_encoder_by_hub_id_is_read():
    text = "deepspeed train_mem.py --vision_tower heron-lab/clip-336 --mm_projector_type mlp2x\n"
    assert found(text) == [("data.inputs", "hf://heron-lab/clip-336")]
    # a word naming the kind of encoder is no model
    assert found("python train.py --vision-tower siglip\n") == []


def test_what_a_converter_is_told_to_save_is_its_output_not_a_checkpoint_place():
    for program in ("tools/ckpt/convert.py --loader core --saver hf", "export_weights.py"):
        text = f"python {program} --load-dir /lustre/ibis/run7 --save-dir=/lustre/ibis/hf7\n"
        assert ("output.artifacts", "/lustre/ibis/hf7") in found(text, shared_disk=True)
        assert ("request.checkpoint_location", "/lustre/ibis/hf7") not in found(text)
    # A trainer's --save-dir stays where it keeps its checkpoints, as does a converting step
    # that saves on a schedule.
    for line in (
        "python train.py --save-dir /lustre/ibis/ckpt",
        "python convert_and_train.py --save-dir /lustre/ibis/ckpt --save-interval 500",
    ):
        assert found(line + "\n") == [("request.checkpoint_location", "/lustre/ibis/ckpt")]


def test_a_hub_downloads_local_folder_is_the_output_of_a_job_that_only_downloads():
    text = "module load hf-cli\nhf download kestrel/vision-9b --local-dir weights/v9\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "hf://kestrel/vision-9b"),
        ("output.artifacts", "weights/v9"),
    ]
    # A later step uses the copy: staging, the Hub repository alone is read.
    used = text + "python finetune.py --model_name_or_path weights/v9\n"
    assert found(used, shared_disk=True) == [("data.inputs", "hf://kestrel/vision-9b")]
    # On a cloud VM or the node's own disk the copy goes with the machine.
    assert found(text) == [("data.inputs", "hf://kestrel/vision-9b")]
    assert found(text.replace("weights/", "/tmp/"), shared_disk=True) == [
        ("data.inputs", "hf://kestrel/vision-9b")
    ]


def test_a_model_variable_with_no_value_given_to_a_model_option_is_the_model_read():
    # The script's argument, kept by its name, also inside a container command.
    text = (
        "MODEL_ID=$1\n"
        'apptainer exec --nv /images/heron.sif python fetch.py --model_name "$MODEL_ID"\n'
    )
    assert ("data.inputs", "$MODEL_ID") in found(text, shared_disk=True)
    # A name set at launch (the environment's, a SkyPilot env without a value): a Hub id.
    assert found("python -m heron.serve --model $BASE_MODEL\n") == [
        ("data.inputs", "hf://$BASE_MODEL")
    ]
    # A variable not named for a model (a run's label) says nothing.
    assert found("python train.py --model_name $RUN_TAG\n") == []


def test_a_data_dir_is_read_when_the_same_command_names_its_output_dir():
    text = "python train.py --data-dir /datasets --epochs 3 --output-dir /results/run-v1\n"
    assert found(text) == [
        ("data.inputs", "/datasets"),
        ("output.artifacts", "/results/run-v1"),
    ]
    # Alone, it is as often where a server keeps its own files.
    assert found("./server --data-dir /var/lib/srv --port 8080\n") == []


def test_a_converters_input_dir_is_read_when_it_also_names_its_output_dir():
    text = "python convert_to_hf.py --input_dir ../ibis-raw/ --size 7B --output_dir ../ibis-hf/7B\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "../ibis-raw/"),
        ("output.artifacts", "../ibis-hf/7B"),
    ]
    # Another program's --input_dir, or a converter's with no output named, says nothing: it
    # as often names a place a step writes for the next.
    assert found("python stage2.py --input_dir /lustre/ibis/s1 --output_dir /lustre/ibis/s2\n") == [
        ("output.artifacts", "/lustre/ibis/s2")
    ]
    assert found("python convert_to_hf.py --input_dir /lustre/ibis/raw\n") == []
    # Nor one an earlier step of the job wrote.
    text = "python shard.py --output_dir /lustre/ibis/s\n" + text.replace(
        "../ibis-raw/", "/lustre/ibis/s"
    )
    assert ("data.inputs", "/lustre/ibis/s") not in found(text, shared_disk=True)


def test_data_the_script_is_given_as_its_argument_is_read_by_its_name():
    text = "DATA_DIR=$1\nOUT=$2\nsrun python embed.py ${DATA_DIR} ${OUT}\n"
    assert found(text, shared_disk=True) == [("data.inputs", "$DATA_DIR")]
    # An argument whose name says nothing of data is not guessed at.
    assert found("RUN=$1\nsrun python embed.py $RUN\n", shared_disk=True) == []


def test_a_command_substitution_stays_in_its_word_as_the_shell_keeps_it():
    assert commands._words("gsutil cp run.tar gs://vault/$(date +%Y-%m)/ --quiet") == [
        "gsutil", "cp", "run.tar", "gs://vault/$(date +%Y-%m)/", "--quiet"
    ]  # fmt: skip
    assert commands._words("X=`hostname -s`_log ${D:-$(pwd)}/in") == [
        "X=`hostname -s`_log", "${D:-$(pwd)}/in"
    ]  # fmt: skip
    # An upload to a dated folder of a bucket is still an upload: what it sends is read.
    text = "gsutil cp /lustre/sets/probe.tar gs://vault/$(date +%Y-%m)/\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/sets/probe.tar"),
        ("output.artifacts", "gs://vault/$(date +%Y-%m)/"),
    ]


def test_a_step_in_backquotes_is_judged_by_the_command_it_runs():
    # The assignment runs a program of the job's own: it may read, so not `no_inputs`.
    text = "FIRST=`python pick_shard.py --split dev`\necho $FIRST\n"
    assert ("data.no_inputs", True) not in found(text)
    assert found("STAMP=`date +%s`\necho $STAMP\n") == [("data.no_inputs", True)]


def test_a_date_stamped_destination_is_stated_as_written_and_no_cut_piece_of_it():
    text = (
        "name: nightly-probe\n"
        "resources:\n  accelerators: L4:1\n"
        "run: |\n"
        "  python probe.py --out results/\n"
        "  aws s3 cp results/ s3://vault/$(date +%Y-%m-%d)/ --recursive\n"
        "  aws s3 cp results/ s3://vault/$(hostname -s)/ --recursive\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="probe.yaml")
    destinations = [a.destination for a in result.description.output.artifacts]
    # (another command's output is not known before the job runs: that place is left unsaid)
    assert destinations == ["s3://vault/$(date +%Y-%m-%d)/"]


def test_a_copy_reads_its_source_as_one_shell_word_whatever_spaces_it_holds():
    text = (
        "resources:\n  accelerators: L4:1\n"
        "run: |\n"
        '  aws s3 sync "s3://vault/raw scans/" /data\n'
        "  python probe.py --data /data --out results/\n"
        "  gsutil -m cp -r results gs://vault/runs/$(date +%F)/\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="probe.yaml")
    assert [i.location for i in result.description.data.inputs] == ["s3://vault/raw scans/"]
    destinations = [a.destination for a in result.description.output.artifacts]
    assert destinations == ["gs://vault/runs/$(date +%F)/"]


def test_the_machine_itself_is_never_data():
    text = (
        "until curl -sf http://127.0.0.1:9100/ready; do sleep 5; done\n"
        "wget -q -O /tmp/state.json http://localhost:9100/v1/state\n"
        "curl -s http://[::1]:9100/metrics > /tmp/metrics.txt\n"
        "curl -sO https://files.example.org/corpora/reviews-2024.jsonl.gz\n"
    )
    assert found(text) == [
        ("data.inputs", "https://files.example.org/corpora/reviews-2024.jsonl.gz")
    ]


def test_a_folder_the_setup_makes_while_it_reads_a_named_source_is_its_local_copy():
    text = (
        "name: tune-reviews\n"
        "resources:\n  accelerators: A10G:1\n"
        "envs:\n  CORPUS: northwind/reviews-2024\n"
        "setup: |\n"
        "  CORPUS_DIR=$HOME/corpora\n"
        "  mkdir -p $CORPUS_DIR\n"
        '  python tools/fetch_corpus.py --dataset "$CORPUS"\n'
        "run: |\n"
        "  python tune.py --data_path $HOME/corpora/reviews-2024\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="tune.yaml")
    assert [i.location for i in result.description.data.inputs] == [
        "hf://datasets/northwind/reviews-2024"
    ]
    # A folder made by a setup that names no source is read as the data it holds.
    alone = text.replace('  python tools/fetch_corpus.py --dataset "$CORPUS"\n', "")
    (result,) = jobformat.import_text(alone.encode(), filename="tune.yaml")
    assert "$HOME/corpora/reviews-2024" in [i.location for i in result.description.data.inputs]


def test_trainer_overrides_that_resume_and_export():
    text = (
        "python -m rl.main trainer.default_local_dir=/lustre/runs/grpo-a \\\n"
        "  trainer.resume_mode=auto trainer.export_path=/lustre/models/grpo-a \\\n"
        "  actor.optim.lr=1e-6\n"
    )
    assert found(text, shared_disk=True) == [
        ("request.checkpoint_location", "/lustre/runs/grpo-a"),
        ("request.preemptible", True),
        ("output.artifacts", "/lustre/models/grpo-a"),
    ]
    # Starting afresh is no resumption.
    fresh = text.replace("resume_mode=auto", "resume_mode=disable")
    assert ("request.preemptible", True) not in found(fresh, shared_disk=True)


def test_a_bucket_given_as_a_key_that_names_the_input_is_read():
    text = (
        "snakemake --cores 8 --config cloud=True reads_dir=gs://seqlab/run-14/fastq "
        "out_dir=gs://seqlab/run-14/calls log_dir=gs://seqlab/logs\n"
    )
    # The outputs' and the logs' keys name no input: only the reads are read.
    assert found(text) == [("data.inputs", "gs://seqlab/run-14/fastq")]


def test_a_yes_or_no_reading_is_noted_in_words():
    script = "#!/bin/bash\n#SBATCH --nodes=1\npython train.py --save /ckpt/run1 --load /ckpt/run1\n"
    [result] = jobformat.import_text(script.encode(), filename="job.sbatch")
    [note] = [n for n in result.notes if n.startswith("request.preemptible")]
    assert note.startswith("request.preemptible: yes (read from")


def test_rsync_and_scp_to_another_machine_or_between_lasting_folders():
    # Results sent to another machine: the folder sent is read, the far side written. A value
    # taken from echo and cut runs nothing that writes, so the folder is the job's input.
    upload = (
        "HOST=$(echo $SSH_CLIENT | cut -d' ' -f1)\n"
        "rsync -av -e ssh /lustre/run7/out/ ana@$HOST:/srv/results/\n"
    )
    assert found(upload, shared_disk=True) == [
        ("data.inputs", "/lustre/run7/out/"),
        ("output.artifacts", "ana@$HOST:/srv/results/"),
    ]
    # A transfer job between two shared folders: the copy it makes is its output.
    move = "SRC=/archive/scans\nDEST=/project/scans\nrsync -auh $SRC $DEST\n"
    assert found(move, shared_disk=True) == [
        ("data.inputs", "/archive/scans"),
        ("output.artifacts", "/project/scans"),
    ]
    # The same path on each node of the job: its own program put in place, not data.
    spread = "BIN=/home/ana/sim/run.x\nscp $BIN $USER@$node:$BIN\n"
    assert found(spread, shared_disk=True) == []


def test_beagle_reads_its_genotypes_and_map_and_writes_its_out_prefix():
    text = (
        "java -Xmx20g -jar beagle.jar gt=/data/cohort.vcf.gz map=maps/chr$CHR.map "
        "chrom=$CHR nthreads=8 out=imputed/cohort.$CHR\n"
    )
    assert found(text) == [
        ("data.inputs", "/data/cohort.vcf.gz"),
        ("data.inputs", "maps/chr$CHR.map"),
        ("output.artifacts", "imputed/cohort.$CHR"),
    ]


def test_star_reads_its_genome_and_reads_and_writes_the_index_or_alignments():
    build = (
        "STAR --runThreadN 8 --runMode genomeGenerate \\\n"
        "  --genomeDir /ref/kiwi_idx --genomeFastaFiles /ref/kiwi.fa /ref/extra.fa \\\n"
        "  --sjdbGTFfile /ref/kiwi.gtf --outTmpDir ./tmp_$SLURM_JOB_ID\n"
    )
    assert found(build) == [
        ("output.artifacts", "/ref/kiwi_idx"),
        ("data.inputs", "/ref/kiwi.fa"),
        ("data.inputs", "/ref/extra.fa"),
        ("data.inputs", "/ref/kiwi.gtf"),
    ]
    align = (
        "STAR --genomeDir /ref/kiwi_idx --readFilesIn s1_R1.fq.gz,s2_R1.fq.gz s1_R2.fq.gz"
        " --readFilesCommand zcat --outFileNamePrefix aln/s1_ > star.log\n"
    )
    assert found(align) == [
        ("data.inputs", "/ref/kiwi_idx"),
        ("data.inputs", "s1_R1.fq.gz"),
        ("data.inputs", "s2_R1.fq.gz"),
        ("data.inputs", "s1_R2.fq.gz"),
        ("output.artifacts", "aln/s1_"),
    ]


def test_gromacs_reads_the_system_and_writes_the_run_under_its_prefix():
    text = (
        "gmx grompp -f em.mdp -c box.gro -p topol.top -o em.tpr -maxwarn 1\n"
        "gmx_mpi mdrun -deffnm em -ntomp 1\n"  # em.tpr was written just above
        "srun mdrun_mpi -s /runs/prod.tpr -deffnm prod -maxh 23.9\n"
        "gmx mdrun -deffnm nvt\n"  # nothing wrote nvt.tpr: the job reads it
    )
    assert found(text) == [
        ("data.inputs", "box.gro"),
        ("data.inputs", "topol.top"),
        ("output.artifacts", "em"),
        ("data.inputs", "/runs/prod.tpr"),
        ("output.artifacts", "prod"),
        ("data.inputs", "nvt.tpr"),
        ("output.artifacts", "nvt"),
    ]


def test_a_run_input_grompp_writes_that_no_step_runs_is_what_the_job_makes():
    text = "gmx grompp -f npt.mdp -c confout.gro -p system.top -o step6 -maxwarn 10\n"
    assert found(text) == [
        ("data.inputs", "confout.gro"),
        ("data.inputs", "system.top"),
        ("output.artifacts", "step6"),
    ]
    # Run by a later step (by -s, or by -deffnm's name): the job's own, as before (the run's
    # prefix is the output then).
    assert ("output.artifacts", "step6") not in found(text + "gmx mdrun -s step6.tpr\n")
    assert found(text + "gmx mdrun -deffnm step6\n").count(("output.artifacts", "step6")) == 1


def test_mdrun_reads_plumed_writes_the_files_it_is_given_and_resumes_its_own_checkpoint():
    text = (
        "gmx_mpi mdrun -s prod.tpr -plumed bias.dat -x prod.xtc -c out.gro -e prod.edr"
        " -g prod.log -cpi state.cpt\n"
    )
    assert found(text) == [
        ("data.inputs", "prod.tpr"),
        ("data.inputs", "bias.dat"),
        ("output.artifacts", "prod.xtc"),
        ("output.artifacts", "out.gro"),
        ("output.artifacts", "prod.edr"),
        ("request.checkpoint_location", "state.cpt"),
        ("request.preemptible", True),
    ]
    # -cpi alone, or the checkpoint -deffnm names: the run's own; another run's checkpoint is
    # only read.
    for text in ("gmx mdrun -deffnm md -cpi md.cpt\n", "srun gmx_mpi mdrun -deffnm md -cpi\n"):
        assert ("request.checkpoint_location", "md.cpt") in found(text), text
        assert ("request.preemptible", True) in found(text), text
    text = "gmx mdrun -deffnm md -cpi ../eq/npt.cpt\n"
    assert ("data.inputs", "../eq/npt.cpt") in found(text)
    assert ("request.preemptible", True) not in found(text)


def test_amber_reads_its_deck_topology_and_coordinates_and_writes_restart_and_trajectory():
    text = (
        "pmemd.cuda -O -i min.in -o min.out -p sys.prmtop -c sys.inpcrd -r min.rst7 -ref sys.inpcrd\n"
        "srun $AMBERHOME/bin/pmemd.cuda -O -i md.in -o md.out -p sys.prmtop -c min.rst7"
        " -r md.rst7 -x md.nc\n"  # min.rst7 was written just above
    )
    assert found(text) == [
        ("data.inputs", "min.in"),
        ("data.inputs", "sys.prmtop"),
        ("data.inputs", "sys.inpcrd"),
        ("output.artifacts", "min.rst7"),
        ("data.inputs", "md.in"),
        ("output.artifacts", "md.rst7"),
        ("output.artifacts", "md.nc"),
    ]


def test_namd_reads_the_configuration_after_its_switches():
    text = (
        "namd2 +ppn $SLURM_CPUS_PER_TASK ../data/stmv.namd\n"
        'mpiexec.hydra -bootstrap=slurm namd2 "eq.conf" > "eq.log"\n'
        "srun namd3 +p 32 +devices 0,1 +setcpuaffinity step4.inp > out.dat\n"
    )
    assert found(text) == [
        ("data.inputs", "../data/stmv.namd"),
        ("data.inputs", "eq.conf"),
        ("data.inputs", "step4.inp"),
    ]
    # Its printout (a redirection) is no configuration; nor is a version switch, nor a script
    # named for NAMD.
    for text in ("namd2 +p8 > namd.log\n", "namd3 --version\n", "python namd.py cfg.yaml\n"):
        assert not [p for p in found(text) if p[0] == "data.inputs"], text


def test_orca_reads_the_input_it_is_given():
    assert found("orca water.inp > water.out\n") == [("data.inputs", "water.inp")]


def test_samtools_reads_the_file_it_is_given_and_writes_its_output():
    text = (
        "samtools sort -@ 8 -o aln/s1.sorted.bam aln/s1.bam\n"
        "samtools index aln/s1.sorted.bam\n"  # written just above: the job's own
        "samtools view -b -q 30 ${S}.bam chr2:1-500 > ${S}.chr2.bam\n"
    )
    assert found(text) == [
        ("data.inputs", "aln/s1.bam"),
        ("output.artifacts", "aln/s1.sorted.bam"),
        ("data.inputs", "${S}.bam"),
        ("output.artifacts", "${S}.chr2.bam"),
    ]


def test_sequencing_tools_read_and_write_the_files_their_options_name():
    text = (
        "gatk HaplotypeCaller -R /ref/kiwi.fa -I s1.dedup.bam -O calls/s1.vcf.gz -ERC GVCF\n"
        "bowtie2 -p 4 -x /ref/idx/kiwi -U trimmed/s2.fq -S s2.sam\n"
        "samtools sort s2.sam -o s2.sorted.bam\n"  # bowtie2 wrote the SAM: the job's own
        "minimap2 -ax asm5 -t 16 /ref/kiwi.fa query.fa > aln.sam\n"  # (asm5: a mode, no file)
        "fastqc -t 4 -o qc/ reads/*_R1.fq.gz\n"
        "spades.py --meta -t 15 --dataset reads.yaml -o asm_out\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/ref/kiwi.fa"),
        ("data.inputs", "s1.dedup.bam"),
        ("output.artifacts", "calls/s1.vcf.gz"),
        ("data.inputs", "/ref/idx/kiwi"),
        ("data.inputs", "trimmed/s2.fq"),
        ("output.artifacts", "s2.sam"),
        ("output.artifacts", "s2.sorted.bam"),
        ("data.inputs", "query.fa"),
        ("output.artifacts", "aln.sam"),
        ("data.inputs", "reads/*_R1.fq.gz"),
        ("output.artifacts", "qc/"),
        ("data.inputs", "reads.yaml"),
        ("output.artifacts", "asm_out"),
    ]
    text = (
        "fastp -i r1.fq.gz -I r2.fq.gz -o t1.fq.gz -O t2.fq.gz -h qc.html\n"
        "bcftools mpileup -f /ref/kiwi.fa aln/s1.bam | bcftools call -mv -o calls.vcf\n"
        "cd /work/tol\n"
        "anchorwave genoAli -i ref.gff3 -as cds.fa -r ref.fa -a cds.sam -ar ref.sam -s q.fa"
        " -n anchors -o out.maf -f out.f.maf\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "r1.fq.gz"),
        ("data.inputs", "r2.fq.gz"),
        ("output.artifacts", "t1.fq.gz"),
        ("output.artifacts", "t2.fq.gz"),
        ("data.inputs", "/ref/kiwi.fa"),
        ("data.inputs", "aln/s1.bam"),
        ("output.artifacts", "calls.vcf"),
        *[("data.inputs", f"/work/tol/{n}") for n in ("ref.gff3", "cds.fa", "ref.fa")],
        *[("data.inputs", f"/work/tol/{n}") for n in ("cds.sam", "ref.sam", "q.fa")],
        *[("output.artifacts", f"/work/tol/{n}") for n in ("anchors", "out.maf", "out.f.maf")],
    ]
    # The script's arguments are its files; a name a command makes up, or a reference left
    # empty, is none.
    text = (
        "target=$1\nquery=$2\nREF=\nbase=$(basename $3 .fasta)\n"
        "minimap2 -x asm5 $target $query > $4/out.paf\n"
        "gatk HaplotypeCaller -R ${REF} -I in.bam -O out.vcf\n"
        'salmon index -t $3 -i "$base"_index -k 27\n'
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "$target"),
        ("data.inputs", "$query"),
        ("output.artifacts", "$4/out.paf"),
        ("data.inputs", "in.bam"),
        ("output.artifacts", "out.vcf"),
        ("data.inputs", "$3"),
    ]


def test_assemblers_and_read_classifiers_read_and_write_the_files_their_options_name():
    text = (
        "flye --nano-raw reads/ont.fq.gz --threads 40 --meta --out-dir 03_ASSEMBLY\n"
        "megahit -1 s1_1.fq.gz -2 s1_2.fq.gz -o s1_megahit -t 16\n"
        "kraken2 --db /ref/k2 --confidence 0.1 --report k/s1.report --output k/s1.out"
        " contigs/s1.fa\n"  # (0.1: the option's number, no file)
        "kraken2-build --standard --threads 10 --db /shared/k2_std\n"
        "kraken2-inspect --db /ref/k2 >/ref/k2_contents.txt\n"  # (against its file)
        "fastp --in1 r1.fq.gz --in2 r2.fq.gz --out1 t1.fq --unpaired1 u1.fq --out2 t2.fq"
        " --unpaired2 u2.fq\n"
        "hisat2 -p 8 -x At_index -1 r1.fq -2 r2.fq -S out.sam\n"  # (an index by its bare name)
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "reads/ont.fq.gz"),
        ("output.artifacts", "03_ASSEMBLY"),
        ("data.inputs", "s1_1.fq.gz"),
        ("data.inputs", "s1_2.fq.gz"),
        ("output.artifacts", "s1_megahit"),
        ("data.inputs", "/ref/k2"),
        ("data.inputs", "contigs/s1.fa"),
        ("output.artifacts", "k/s1.report"),
        ("output.artifacts", "k/s1.out"),
        ("output.artifacts", "/shared/k2_std"),
        ("output.artifacts", "/ref/k2_contents.txt"),
        ("data.inputs", "r1.fq.gz"),
        ("data.inputs", "r2.fq.gz"),
        ("output.artifacts", "t1.fq"),
        ("output.artifacts", "u1.fq"),
        ("output.artifacts", "t2.fq"),
        ("output.artifacts", "u2.fq"),
        ("data.inputs", "At_index"),
        ("data.inputs", "r1.fq"),
        ("data.inputs", "r2.fq"),
        ("output.artifacts", "out.sam"),
    ]
    # an index the job built (`hisat2-build ref.fa idx`) is its own, not data it reads
    for tool in ("hisat2", "bowtie2"):
        text = f"{tool}-build --threads 4 ref.fa idx\n{tool} -x idx -U r.fq -S o.sam\n"
        assert found(text, shared_disk=True) == [
            ("data.inputs", "r.fq"),
            ("output.artifacts", "o.sam"),
        ]
    # the printout thrown away (`>/dev/null`, `> /dev/null`) is no output
    text = "kraken2 --db db r.fq >/dev/null\nfastp -i a.fq -o b.fq > /dev/null\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "r.fq"),
        ("data.inputs", "a.fq"),
        ("output.artifacts", "b.fq"),
    ]


def test_trimmomatic_names_its_files_by_position():
    text = (
        "trimmomatic PE -threads 4 r1.fq.gz r2.fq.gz p1.fq.gz u1.fq.gz p2.fq.gz u2.fq.gz"
        " ILLUMINACLIP:adapters/TruSeq3-PE.fa:2:30:10 LEADING:3 MINLEN:36\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "r1.fq.gz"),
        ("data.inputs", "r2.fq.gz"),
        ("data.inputs", "adapters/TruSeq3-PE.fa"),
        *[("output.artifacts", f"{n}.fq.gz") for n in ("p1", "u1", "p2", "u2")],
    ]
    # By its jar's name, single-end (TOPHRED33: a step, no file), a backslash escaping a
    # character, and -basein/-baseout; its printout (2>) is no result.
    text = (
        "java -jar $T/trimmomatic-0.36.jar SE -phred33 in.fq.gz \\/data/out.fq.gz TOPHRED33"
        " MINLEN:36 2> trim.log\n"
        "trimmomatic PE -basein s_R1.fq.gz -baseout s.fq.gz SLIDINGWINDOW:4:15\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "in.fq.gz"),
        ("output.artifacts", "/data/out.fq.gz"),
        ("data.inputs", "s_R1.fq.gz"),
        ("output.artifacts", "s.fq.gz"),
    ]
    # A file whose name starts with 2 is a file, not a redirection of the printout.
    text = "trimmomatic PE 2021_R1.fq.gz 2021_R2.fq.gz p1.fq.gz u1.fq.gz p2.fq.gz u2.fq.gz\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "2021_R1.fq.gz"),
        ("data.inputs", "2021_R2.fq.gz"),
        *[("output.artifacts", f"{n}.fq.gz") for n in ("p1", "u1", "p2", "u2")],
    ]


def test_bwa_mem2_reads_as_bwa_mem_does():
    text = 'bwa-mem2 mem -t 16 -R "@RG\\tID:s1" /ref/kiwi.fna r1.fq.gz r2.fq.gz > s1.sam\n'
    assert found(text, shared_disk=True)[:3] == [
        ("data.inputs", "/ref/kiwi.fna"),
        ("data.inputs", "r1.fq.gz"),
        ("data.inputs", "r2.fq.gz"),
    ]


def test_files_a_job_goes_to_then_writes_and_removes_are_scratch():
    text = (
        "cd /projects/chip/trim\n"
        "bowtie2 -x /ref/idx/h38 -U in_trimmed.fq -S /projects/chip/bam/out.sam\n"
        "cd /projects/chip/bam\n"
        "samtools view -Sb out.sam > out.bam\n"  # the SAM written above, named after the cd
        "samtools sort out.bam -o sorted.bam\n"
        "rm out.sam\nrm out.bam\n"  # scratch: not what the job leaves behind
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/ref/idx/h38"),
        ("data.inputs", "/projects/chip/trim/in_trimmed.fq"),
        ("output.artifacts", "/projects/chip/bam/sorted.bam"),
    ]


def test_a_loop_whose_header_ends_in_a_semicolon_before_do_on_the_next_line():
    text = "for S in s1 s2;\ndo\n  fastqc -o qc/ reads/$S.fq.gz\ndone\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "reads/s1.fq.gz"),
        ("output.artifacts", "qc/"),
        ("data.inputs", "reads/s2.fq.gz"),
    ]
    # A glob's files are not in the file: the loop's variable alone names none of them.
    text = "FILES=data/*.fq.gz\nfor i in $FILES;\ndo\n  bismark --genome ref/ $i -o mapped\ndone\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "ref/"),
        ("output.artifacts", "mapped"),
    ]


def test_an_evaluation_reads_the_weights_it_is_given_and_writes_its_outfile():
    hub = "python eval.py --pretrained_checkpoint northwind/vla-7b --task_suite s1\n"
    assert found(hub) == [("data.inputs", "hf://northwind/vla-7b")]
    loaded = "python infer.py --checkpoint_path /runs/reg/best_2100.mdl --outfile preds_ms\n"
    assert found(loaded) == [
        ("data.inputs", "/runs/reg/best_2100.mdl"),
        ("output.artifacts", "preds_ms"),
    ]
    # A folder given as the checkpoint path, with nothing saved: neither read nor kept.
    assert found("python infer.py --checkpoint_path /runs/reg/\n") == []


def test_a_loop_printed_into_a_table_writes_that_table():
    text = 'for F in $1/*_1.fastq.gz; do\n  echo -e "$(basename $F)\\t$F"\ndone > samples.tsv\n'
    assert found(text, shared_disk=True) == [("output.artifacts", "samples.tsv")]


def test_a_usage_message_for_a_missing_argument_redirects_nothing():
    text = 'CFG=${1:?usage: sbatch run.sh <settings.yaml> [seed]}\npython fit.py --config "$CFG"\n'
    assert found(text, shared_disk=True) == []
    # A file fed to the program is still read.
    assert found("pw.x < scf.in\n", shared_disk=True) == [("data.inputs", "scf.in")]


def test_a_closing_tag_in_an_argument_redirects_nothing():
    text = "python -m app.main generator.stop='[\"</tool_call>\"]' < /lustre/in.txt\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/lustre/in.txt")]


def test_a_variable_named_for_a_folder_holds_that_folder():
    text = (
        'MODEL_DIR="${MODEL_DIR:-outputs/rssm_base}"\nDATA_DIR="${DATA_DIR:-data/processed}"\n'
        'python eval.py --model_dir "$MODEL_DIR" --data_dir "$DATA_DIR"\n'
    )
    # Relative folders of two parts, not Hub ids (nor left unsaid).
    assert found(text, shared_disk=True) == [
        ("data.inputs", "outputs/rssm_base"),
        ("data.inputs", "data/processed"),
    ]
    # A model named by its Hub id stays one.
    assert found(
        'MODEL_NAME=org/tiny-llm\npython run.py --model "$MODEL_NAME"\n', shared_disk=True
    ) == [("data.inputs", "hf://org/tiny-llm")]


def test_a_table_printed_into_a_log_folder_is_a_log():
    text = (
        "nvidia-smi --query-gpu=timestamp,memory.used --format=csv -l 10 > $HOME/x/logs/gpu_$ID.csv &\n"
        "python fit.py\n"
    )
    assert found(text, shared_disk=True) == []
    # A table printed elsewhere is still the job's result.
    assert found("done > samples.tsv\n", shared_disk=True) == [("output.artifacts", "samples.tsv")]


def test_an_annotation_file_by_its_short_name_is_read():
    text = "python train.py --dataset_ann_path /d/coco/ann.json --dataset_img_path /d/feats/\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/d/coco/ann.json"),
        ("data.inputs", "/d/feats/"),
    ]
    # Not a word that only contains the letters (a settings file stays the run's settings).
    assert found("python train.py --data_channels_path conf/x.json\n", shared_disk=True) == []


def test_the_checkpoint_an_evaluation_is_given_as_its_argument_is_read():
    text = "CHECKPOINT_PATH=$1\npython src/main_eval.py checkpoint_path=$CHECKPOINT_PATH\n"
    assert found(text, shared_disk=True) == [("data.inputs", "$CHECKPOINT_PATH")]
    # Not in a script that trains (there it is as often where the trainer saves).
    text = "CHECKPOINT_PATH=$1\npython train.py checkpoint_path=$CHECKPOINT_PATH\n"
    assert ("data.inputs", "$CHECKPOINT_PATH") not in found(text, shared_disk=True)


def test_a_word_in_angle_brackets_redirects_nothing():
    text = 'echo "usage: sbatch job.sh <script.py> [args...]" >&2\nexec python "$@"\n'
    assert found(text, shared_disk=True) == []
    # A file fed to the program, even written tight, is still read.
    assert found("pw.x <scf.in\n", shared_disk=True) == [("data.inputs", "scf.in")]


def test_a_data_file_handed_over_by_its_kind_is_read():
    text = (
        'python fit.py --tracks-glob "/scratch/ais/tracks-*.csv" --coast-shp maps/coast.shp '
        "--features feats/sessions.npz --pred-out preds/val.csv --log-file logs/run.csv\n"
        "[ -f tables/ports.csv ] && echo ok\n"
    )
    # Not one the option says it writes, nor the program's own log, nor a file a test looks at.
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/scratch/ais/tracks-*.csv"),
        ("data.inputs", "maps/coast.shp"),
        ("data.inputs", "feats/sessions.npz"),
    ]
    # Nor one an earlier step of the job wrote.
    text = (
        "python prep.py --output_dir /lustre/prep\npython fit.py --table /lustre/prep/t.parquet\n"
    )
    assert found(text, shared_disk=True) == [("output.artifacts", "/lustre/prep")]


def test_a_kill_of_what_the_run_starts_next_clears_an_old_copy_and_stops_nothing():
    from jobs.jobformat.realtime import ends_serving

    run = "pkill -f 'llama-server' || true\nllama-server -m /w/q.gguf --host 0.0.0.0 --port 9000\n"
    assert ends_serving(run)
    # A kill after the server is up stops it: the job ends.
    assert not ends_serving("vllm serve acme/tiny &\npython probe.py\npkill -f vllm\n")


def test_a_server_published_through_a_tunnel_serves_whatever_the_run_ends_on():
    text = (
        "resources:\n  accelerators: L4:1\n"
        "run: |\n  nohup vllm serve acme/tiny --port 8080 > v.log 2>&1 &\n"
        "  nohup cloudflared tunnel run --token $TUNNEL_TOKEN > t.log 2>&1 &\n"
        "  bash tools/wait-until-idle.sh\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    realtime = result.description.realtime
    # Whether the idle watcher ends it is not read: only that it answers requests.
    assert realtime.serves_requests is True and realtime.finishes_on_its_own is None


def test_a_run_that_only_keeps_the_machine_up_holds_it_until_stopped():
    from jobs.jobformat.realtime import ends_serving

    assert ends_serving('echo "ready: ssh devbox"\nwhile true; do sleep 600; done\n')
    assert ends_serving("sleep infinity\n")
    # A long sleep ends by itself.
    assert not ends_serving("sleep 7200\n")


def test_a_shutdown_scheduled_by_the_run_is_its_maximum():
    text = (
        "envs:\n  CAP_MINUTES: 90\n"
        "run: |\n  sudo shutdown -h +${CAP_MINUTES} &\n  python batch.py\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.request.maximum.seconds == 90 * 60


def test_a_container_run_on_its_own_entrypoint_is_not_a_run_that_reads_nothing():
    text = "resources:\n  ports: 8000\nrun: |\n  sleep 5\n  docker run -p 8000:8000 acme-api:1\n"
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.data.no_inputs is None


def test_software_from_apache_mirrors_is_not_data_and_hf_repo_names_a_hub_model():
    text = (
        "setup: |\n  wget https://archive.apache.org/dist/flink/flink-1.18.0-bin.tgz\n"
        "  python tools/fetch.py --hf-repo acme/tiny-gguf -q q4\n"
        "run: python main.py\n"
    )
    assert sky_data(text) == (["hf://acme/tiny-gguf"], [])


def test_a_clone_made_at_an_absolute_place_is_the_code_the_run_starts_there():
    text = (
        "setup: git clone https://github.com/acme/engine.git /opt/engine\n"
        "run: |\n  cd /opt/engine\n  python tools/serve_batch.py --n 4\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.work.code == ["https://github.com/acme/engine.git"]


def test_the_checkpoints_an_evaluation_scores_are_read_not_kept():
    text = (
        'CKPT_DIR="${CHECKPOINT_DIR:-/lake/runs/edit-m200/seed42}"\n'
        'python scripts/eval_edits.py --checkpoint_dir "${CKPT_DIR}" --seed 42\n'
    )
    assert found(text) == [("data.inputs", "/lake/runs/edit-m200/seed42")]
    # A trainer given the same option keeps its checkpoints there.
    text = "CKPT_DIR=/lake/runs/edit-m200\npython train_edits.py --checkpoint_dir $CKPT_DIR\n"
    assert found(text) == [("request.checkpoint_location", "/lake/runs/edit-m200")]
    # …as does an evaluation that also saves on a schedule.
    text = "python evaluate.py --ckpt_dir /lake/runs/a --save_every 100\n"
    assert found(text) == [("request.checkpoint_location", "/lake/runs/a")]


def test_a_hub_repository_held_in_an_environment_variable_is_read():
    text = (
        'python -c "import os; from huggingface_hub import snapshot_download; '
        "snapshot_download(os.environ['ADAPTER_REPO'], local_dir='/tmp/a')\"\n"
        'python -c "import os; from transformers import AutoModel; '
        "AutoModel.from_pretrained(os.getenv('BASE'))\"\n"
    )
    assert found(text, variables={"ADAPTER_REPO": "fjord/adapter-v1"}) == [
        ("data.inputs", "hf://fjord/adapter-v1")
    ]


def test_a_tokenizer_named_by_its_hub_id_is_read():
    text = "python -m lab.run --model-id fjord/base-8b --tokenizer-id fjord/base-8b-tok --seed 1\n"
    assert found(text) == [
        ("data.inputs", "hf://fjord/base-8b"),
        ("data.inputs", "hf://fjord/base-8b-tok"),
    ]


def test_a_clone_whose_url_ref_and_folder_come_from_the_tasks_envs_is_the_code():
    text = (
        "envs:\n  REPO_URL: https://github.com/acme/engine.git\n  REPO_REF: exp/fast\n"
        "  REPO_DIR: /opt/engine\nsetup: |\n"
        '  git clone --branch "$REPO_REF" "$REPO_URL" "$REPO_DIR"\n'
        'run: |\n  cd "$REPO_DIR"\n  python tools/serve_batch.py --n 4\n'
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.work.code == ["https://github.com/acme/engine.git@exp/fast"]


def test_a_hub_dataset_named_for_its_use_is_read_and_one_named_for_output_is_not():
    text = "python train.py --replay_dataset tidewater/clean-web --output_dataset tidewater/mix\n"
    assert found(text) == [("data.inputs", "hf://datasets/tidewater/clean-web")]


def test_an_upload_programs_repository_is_an_output():
    text = "python upload_results.py runs/a --repo_id tidewater/results-a --repo-type dataset\n"
    assert ("output.artifacts", "hf://datasets/tidewater/results-a") in found(text)
    # The same option on a program that does not upload says nothing.
    assert found("python evaluate.py --repo_id tidewater/results-a\n") == []


def test_a_trainers_model_dir_on_a_line_that_resumes_is_its_checkpoint_place():
    text = "python train.py --model_dir /ckpt/run7/ --resume --epochs 40\n"
    assert found(text) == [
        ("request.checkpoint_location", "/ckpt/run7/"),
        ("request.preemptible", True),
    ]
    assert found("python train.py --model_dir /ckpt/run7/ --epochs 40\n") == []


def test_a_checkpoint_base_folder_is_where_checkpoints_go():
    text = "python stream.py --checkpoint_base /store/ckpt/run3 --save_interval 10\n"
    assert found(text) == [("request.checkpoint_location", "/store/ckpt/run3")]


def test_commands_quoted_for_echo_are_advice_not_work():
    text = (
        'echo "to keep it: aws s3 sync /scratch/npz s3://tidewater-npz/prepared"\n'
        "echo 'or: wget https://example.org/tides.csv'\n"
    )
    assert found(text) == [("data.no_inputs", True)]


def test_a_download_saved_as_a_package_is_an_installer():
    text = (
        "wget -O viewer.deb 'https://downloads.example.org/get?os=linux&arch=x64'\n"
        "sudo apt install -y ./viewer.deb\n"
    )
    assert ("data.inputs", "https://downloads.example.org/get?os=linux") not in found(text)


def test_a_hub_call_whose_arguments_start_on_the_next_line_and_a_file_python_saves():
    text = (
        'python -c "\n'
        "pipe = Pipeline.from_pretrained(\n"
        "    'tidewater/wave-gen', dtype='fp16')\n"
        "pipe('a calm sea').images[0].save('calm_sea.png')\n"
        '"\n'
    )
    assert found(text) == [
        ("data.inputs", "hf://tidewater/wave-gen"),
        ("output.artifacts", "calm_sea.png"),
    ]


def test_a_signal_handler_defined_and_trapped_runs_nothing_of_its_own():
    def reads_nothing(text):
        return ("data.no_inputs", True) in found(text)

    handler = 'on_usr1() {\n    echo "warned at $(date)"\n}\ntrap on_usr1 USR1\n'
    assert reads_nothing(handler + "sleep 600 &\nwait\n")
    assert reads_nothing("function tidy {\n  echo bye\n}\ntrap 'tidy' EXIT\nsleep 5\n")
    # What the handler or the job runs still decides.
    assert not reads_nothing("save() {\n  python save.py\n}\ntrap save USR1\nsleep 5\n")
    assert not reads_nothing(handler + "python simulate.py &\nwait\n")


def test_a_folder_named_for_the_job_that_it_makes_and_works_in_is_staging():
    text = (
        "work=/scratch/$USER/$SLURM_JOB_ID\n"
        "mkdir -p $work\n"
        "cp /lab/maps/density.npy $work/\n"
        "cp /lab/code/fit.py /lab/code/plot.mplstyle $work\n"
        "cd $work\n"
        "python fit.py\n"
        "cp -r results/* /lab/runs/$SLURM_JOB_ID/\n"
    )
    assert found(text) == [
        ("data.inputs", "/lab/maps/density.npy"),
        ("output.artifacts", "/lab/runs/$SLURM_JOB_ID/"),
    ]
    # A folder named for the job that it only fills is where results go, not a working copy.
    kept = "mkdir -p /lab/runs/$SLURM_JOB_ID\ncp /lab/maps/density.npy /lab/runs/$SLURM_JOB_ID/\n"
    assert ("data.inputs", "/lab/maps/density.npy") not in found(kept)


def test_a_deck_copied_into_the_jobs_own_folder_is_read_from_where_it_came():
    text = (
        "WORK_DIR=/data/$USER/Orca_${SLURM_JOB_ID}\n"
        "mkdir -p $WORK_DIR\n"
        "cp $PWD/water.inp $WORK_DIR\n"
        "cp /lab/bin/settings.cfg $WORK_DIR\n"  # (not a deck: its settings)
        "cd $WORK_DIR\n"
        "$ORCA_PATH/orca water.inp > water.out\n"
    )
    assert found(text) == [("data.inputs", "$PWD/water.inp")]
    # Not copied in: the deck is read where it is.
    assert found("cd /lab/runs\norca water.inp\n") == [("data.inputs", "water.inp")]


def test_an_image_file_under_an_environment_folder_is_kept_as_written():
    def images(text):
        return [value for path, value in found(text) if path == "work.image"]

    assert images("apptainer exec $HOME/img/solver.sif solve --mesh m1\n") == [
        "$HOME/img/solver.sif"
    ]
    assert images("apptainer exec $IMAGE solve\n") == []  # a variable with no value here


def test_of_several_containers_the_one_given_the_gpus_is_the_jobs_image():
    text = (
        "singularity exec /img/postgres.sif postgres -D /tmp/db &\n"
        "singularity exec --nv --bind /data:/data /img/worker.sif embed --db /tmp/db\n"
    )
    assert [v for p, v in found(text) if p == "work.image"] == ["/img/worker.sif"]


def test_report_files_are_written_and_a_model_named_by_its_role_is_read():
    text = (
        "python score.py --dpo_model_path /lab/tidewater/dpo/checkpoint-40 \\\n"
        "  --summary_path /lab/tidewater/eval/summary.json \\\n"
        "  --generated_path /lab/tidewater/gen/answers.jsonl \\\n"
        "  --val_path $SCRATCH/tides/val.bin\n"
    )
    assert found(text) == [
        ("data.inputs", "/lab/tidewater/dpo/checkpoint-40"),
        ("output.artifacts", "/lab/tidewater/eval/summary.json"),
        # generated texts may be read or written: not stated
        ("data.inputs", "$SCRATCH/tides/val.bin"),
    ]
    # (a model a program makes is written, not read)
    assert found("python merge.py --output_model_path /lab/out/merged\n") == [
        ("output.artifacts", "/lab/out/merged")
    ]


def test_a_checkpoint_an_evaluation_loads_is_read_but_not_one_a_trainer_is_given():
    text = 'CKPT="${2:-save/gqa/final.pt}"\npython3 evaluate.py -config c.yaml -ckpt "${CKPT}"\n'
    assert found(text) == [("data.inputs", "save/gqa/final.pt")]
    parsed = (
        'CKPT=""\nwhile [[ $# -gt 0 ]]; do\n  case "$1" in\n'
        '    --checkpoint) CKPT="$2"; shift 2 ;;\n  esac\ndone\n'
        'python -m src.generate --checkpoint "$CKPT"\n'
    )
    assert found(parsed) == [("data.inputs", "$CKPT")]
    # an optional argument (empty fallback), a trainer's, or one given from the environment
    assert found('CKPT="${2:-}"\npython gen.py --checkpoint "$CKPT"\n') == []
    assert found("python train.py --checkpoint /lab/runs/a\n") == []
    assert found("python gen.py --checkpoint $CKPT\n") == []


def test_configuration_overrides_name_the_data_path_its_output_and_a_local_model():
    text = (
        "python3 -m gen.main data.path=data/tides/train.parquet "
        "data.output_path=data/tides/answers.parquet "
        "model.path=checkpoints/tides/step_50/actor_hf\n"
    )
    assert found(text) == [
        ("data.inputs", "data/tides/train.parquet"),
        ("output.artifacts", "data/tides/answers.parquet"),
        ("data.inputs", "checkpoints/tides/step_50/actor_hf"),
    ]


def test_variables_that_hold_names_or_several_values_are_not_places_or_launch_settings():
    text = (
        'SETS="ego movie"\nfor SET in ${SETS}; do\n  python run.py --dataset ${SET}\ndone\n'
        'python gen.py --dataset "${EVAL_SET_NAME}" --model_name "${CHECKPOINT_PATH}"\n'
    )
    assert found(text) == [("data.inputs", "${CHECKPOINT_PATH}")]
    served = (
        'case "$SLURM_PROCID" in\n  0)\n    MODEL_NAME="metricA"\n    ;;\n'
        '  1)\n    MODEL_NAME="metricB"\n    ;;\nesac\npython -m rm.serve --model_name $MODEL_NAME\n'
    )
    assert found(served) == []
    # a model variable the file gives no value, for an option taking a name or a path
    assert found("python eval.py --base_model ${BASE_MODEL}\n") == [
        ("data.inputs", "hf://${BASE_MODEL}")
    ]
    assert found("python eval.py --base_model ${BASE_MODEL_PATH}\n") == [
        ("data.inputs", "${BASE_MODEL_PATH}")
    ]


def test_a_python_module_named_for_serving_left_in_the_foreground_serves():
    text = "#!/bin/bash\n#SBATCH --gpus=1\npython -m tides.cli.serve_rm --port 5000\n"
    (result,) = jobformat.import_text(text.encode(), filename="rm.sbatch")
    assert result.description.realtime.serves_requests is True
    assert result.description.realtime.finishes_on_its_own is False


def test_the_folder_of_the_jobs_own_log_is_not_an_output():
    text = (
        "#!/bin/bash\n#SBATCH --output=/home/kai/tides/slurmlogs/eval-%j.out\n#SBATCH --gpus=1\n"
        "LOGDIR=/home/kai/tides/slurmlogs\ntouch ${LOGDIR}/.writetest\npython eval.py\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="eval.sbatch")
    assert result.description.output.artifacts is None


def test_a_folder_the_job_makes_and_hands_its_trainer_as_out_is_delivered():
    text = (
        "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --output=results/den/slurm-%j.out\n"
        "mkdir -p results/den\npython den/train.py --data data/renders --out results/den\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="den.sbatch")
    # the job's log is written there too, but the program was told to write its results there
    assert [a.destination for a in result.description.output.artifacts] == ["results/den"]
    # a bare --out the job did not make is as often a prefix or a scratch folder: unsaid
    assert found("python den/train.py --out results/den\n") == []


def test_a_maxtext_output_folder_is_its_checkpoint_place_when_it_checkpoints():
    text = (
        "python3 -m MaxText.train base.yml dataset_path=gs://tides-data "
        "base_output_directory=gs://tides-runs enable_checkpointing=true\n"
    )
    assert found(text) == [
        ("data.inputs", "gs://tides-data"),
        ("request.checkpoint_location", "gs://tides-runs"),
        ("output.artifacts", "gs://tides-runs"),
    ]
    # (review 1) checkpointing is on by default in MaxText's settings: off only when told
    default = "python3 -m MaxText.train base.yml base_output_directory=gs://tides-runs\n"
    assert ("output.artifacts", "gs://tides-runs") in found(default)
    assert ("request.checkpoint_location", "gs://tides-runs") in found(default)
    off = default.replace("\n", " enable_checkpointing=False\n")
    assert found(off) == [("output.artifacts", "gs://tides-runs")]


def test_a_benchmarks_generated_prompts_and_a_file_it_removed_then_remade_are_not_read():
    text = (
        "rm -f /tmp/steps.csv\n"
        "python -m tide.bench --dataset-name random --num-prompts 20\n"
        "python summarize.py /tmp/steps.csv\n"
    )
    assert found(text) == []


def test_fetched_helper_scripts_and_nccl_tests_read_nothing():
    text = (
        'eval "$(curl -fsSL https://raw.githubusercontent.com/harbor/tides/main/init.sh)"\n'
        "torchrun --nproc_per_node=8 tools/nccl_tests.py\n"
    )
    assert found(text) == [("data.no_inputs", True)]


def test_a_functions_argument_names_no_place_of_its_own():
    text = (
        "step() {\n"
        '  output="$2"\n'
        '  python fit.py --phase "$1" --output "${output}"\n'
        "}\n"
        "step 1 /scratch/one\n"
    )
    assert ("output.artifacts", "${output}") not in found(text)


def test_a_pipe_inside_quotes_does_not_start_a_program_in_a_clone():
    text = (
        "git clone https://github.com/harbor-lab/tide-model.git\n"
        "cd tide-model\n"
        'pkill -f "tide.serve|tide.worker" || true\n'
        'echo "ready"\n'
    )
    assert commands.code_from_clones([(text, "run", 1)]) == []


def test_a_loop_over_literal_words_is_read_once_per_value_on_its_body_line():
    text = (
        "module load python\n"
        "for M in tern-7b gull-7b; do python eval.py --model_name_or_path harbor/$M "
        "--output_dir /scratch/evals/$M; done\n"
    )
    proposals = commands.read(text)
    assert [(p.path, p.value, p.line) for p in proposals] == [
        ("data.inputs", "hf://harbor/tern-7b", 2),
        ("output.artifacts", "/scratch/evals/tern-7b", 2),
        ("data.inputs", "hf://harbor/gull-7b", 2),
        ("output.artifacts", "/scratch/evals/gull-7b", 2),
    ]


def test_nested_loops_over_arrays_bind_a_variable_set_in_the_body():
    text = (
        'SPLITS=("dev" "test")\n'
        "STEPS=(400)\n"
        'for SPLIT in "${SPLITS[@]}"; do\n'
        'for STEP in "${STEPS[@]}"; do\n'
        "  CKPT=/lustre/runs/tide/step_${STEP}\n"
        "  python score.py data.path=/lustre/sets/${SPLIT}.parquet model.path=${CKPT} \\\n"
        "    data.output_path=/lustre/scores/${SPLIT}_${STEP}.parquet\n"
        "done\n"
        "done\n"
    )
    assert found(text) == [
        ("data.inputs", "/lustre/sets/dev.parquet"),
        ("data.inputs", "/lustre/runs/tide/step_400"),
        ("output.artifacts", "/lustre/scores/dev_400.parquet"),
        ("data.inputs", "/lustre/sets/test.parquet"),
        ("output.artifacts", "/lustre/scores/test_400.parquet"),
    ]


def test_a_loop_over_a_list_variable_braces_or_seq_with_do_on_the_next_line():
    listed = 'SETS="reef kelp"\nfor S in $SETS\ndo\n  python fit.py --data /data/$S\ndone\n'
    assert found(listed) == [("data.inputs", "/data/reef"), ("data.inputs", "/data/kelp")]
    braced = "for R in run_{a,b}; do python fit.py --output_dir /out/$R; done\n"
    assert found(braced) == [("output.artifacts", "/out/run_a"), ("output.artifacts", "/out/run_b")]
    counted = "for S in $(seq 1 3); do\n  python fit.py --seed $S --output_dir /out/seed_$S\ndone\n"
    # (three side by side are their folder: test_outputs_a_loop_writes_side_by_side_…)
    assert [v for _, v in found(counted)] == ["/out"]


def test_loops_whose_values_are_not_in_the_file_or_too_many_are_read_as_written():
    for words in ("/data/*.bin", "$(ls /data)", "$SHARDS_FROM_LAUNCH", "{1..100}", "$(seq 1 40)"):
        text = (
            f"for F in {words}; do\n  python fit.py --input /data/x_$F --output_dir /out/$F\ndone\n"
        )
        assert found(text) == [
            ("data.inputs", "/data/x_$F"),
            ("output.artifacts", "/out/$F"),
        ], words
    # nested loops count their turns together: 4 x 5 is too many, the outer one is read
    text = (
        "for A in a b c d; do\n  for B in 1 2 3 4 5; do\n"
        "    python fit.py --output_dir /out/$A/$B\n  done\ndone\n"
    )
    assert found(text)[:2] == [("output.artifacts", "/out/a/$B"), ("output.artifacts", "/out/b/$B")]


def test_loop_values_as_the_shell_gives_them():
    variables = commands.script_variables('PAIR="x y"\n')
    assert commands._loop_values('"$PAIR"', variables, {}) == ["x y"]
    assert commands._loop_values("$PAIR z", variables, {}) == ["x", "y", "z"]
    assert commands._loop_values('"${L[@]}"', variables, {"L": ["p", "q"]}) == ["p", "q"]
    assert commands._loop_values('"${!L[@]}"', variables, {"L": ["p"]}) is None
    assert commands._loop_values("`seq 0 2 4`", variables, {}) == ["0", "2", "4"]
    arrays = commands._arrays([(1, 'L=("p" q)'), (2, "T=([a]=x)"), (3, "U=(u)"), (4, "U+=(v)")])
    assert arrays == {"L": ["p", "q"]}


def test_an_image_pushed_is_delivered_and_the_registry_key_piped_to_login_is_a_credential():
    task = (
        "resources:\n  accelerators: L4:1\nworkdir: .\nrun: |\n"
        '  echo "$REGISTRY_PAT" | docker login ghcr.io -u bot --password-stdin\n'
        "  docker build -t ghcr.io/northwind/seg:2 .\n"
        "  docker push ghcr.io/northwind/seg:2\n"
    )
    (result,) = jobformat.import_text(task.encode(), filename="build.yaml")
    description = result.description
    assert description.work.credentials == ["REGISTRY_PAT"]
    assert [a.destination for a in description.output.artifacts] == ["ghcr.io/northwind/seg:2"]
    # Building and publishing an image reads no data: what it hands back is no place it reads.
    assert description.data.no_inputs
    # `docker cp` moves files the file does not show: nothing is said about them.
    copied = task.replace("docker push", "docker cp box:/out")
    (result,) = jobformat.import_text(copied.encode(), filename="build.yaml")
    assert not result.description.data.no_inputs


def test_grep_over_a_pipe_and_a_shell_hook_read_nothing_but_grep_of_a_file_does():
    def quiet(*lines):
        (result,) = jobformat.import_text(
            ("resources:\n  cpus: 2\nrun: |\n" + "".join(f"  {x}\n" for x in lines)).encode(),
            filename="probe.yaml",
        )
        return bool(result.description.data.no_inputs)

    assert quiet("V=$(nvidia-smi | grep -oP 'Driver Version: [0-9.]+')", 'echo "$V"')
    assert quiet('eval "$(direnv hook bash)"', "direnv allow", "nvidia-smi")
    assert not quiet("nvidia-smi | grep -i tesla runs/seen.txt")
    assert not quiet("grep -c ok results.log")


def test_a_hub_page_given_as_an_option_is_the_repository_read_over_a_name_beside_it():
    text = (
        "python eval.py --dataset wds/coast_captions \\\n"
        '  --dataset_root "https://huggingface.co/datasets/northwind/wds_coast/tree/main"\n'
    )
    assert found(text) == [("data.inputs", "hf://datasets/northwind/wds_coast")]


def test_a_sections_output_dir_override_and_a_media_folder_paired_with_an_output():
    assert found('python -m seg.train -c run.yaml "training.output_dir=runs/"') == [
        ("output.artifacts", "runs/")
    ]
    assert found("python cut.py --video-dir /mnt/raw/clips --output-dir /mnt/frames") == [
        ("data.inputs", "/mnt/raw/clips"),
        ("output.artifacts", "/mnt/frames"),
    ]
    # a rehearsal writes nothing; what it would read is still named
    assert found("python cut.py --video-dir /mnt/raw/clips --output-dir /mnt/frames --dry-run") == [
        ("data.inputs", "/mnt/raw/clips")
    ]


def test_a_script_of_a_generated_length_is_read_at_its_start_and_end_and_says_so():
    echo = "echo step\n"
    text = (
        "python prep.py --data /lustre/in/start\n"
        + echo * (HEAD_LINES + 99)
        + "python x.py --data /lustre/in/middle\n"  # line 4101: in the unread middle
        + echo * TAIL_LINES
        + "aws s3 cp /lustre/out s3://northwind-results/run --recursive\n"
    )
    read = commands.read(text)
    places = [(p.path, p.value) for p in read if p.path != "note"]
    assert ("data.inputs", "/lustre/in/start") in places
    assert ("output.artifacts", "s3://northwind-results/run") in places
    assert ("data.inputs", "/lustre/in/middle") not in places
    [note] = [p for p in read if p.path == "note"]
    assert note.value == (
        f"The commands run to {HEAD_LINES + TAIL_LINES + 102:,} lines: the first {HEAD_LINES:,} "
        f"and the last {TAIL_LINES:,} were read, not the 102 between them"
    )
    assert note.line == HEAD_LINES + 1
    # Lines it did not read may read anything: "reads nothing" is not said.
    quiet = commands.read(echo * (HEAD_LINES + TAIL_LINES + 10))
    assert [p.path for p in quiet] == ["note"]


def test_a_command_of_a_generated_length_is_read_at_its_start_and_says_so():
    options = " --data /lustre/in/part" * (LONGEST_COMMAND // 20)
    text = f"echo start\npython prep.py --data /lustre/in/first{options} --data /lustre/in/last\n"
    text += "aws s3 cp /lustre/out s3://northwind-results/run --recursive\n"
    read = commands.read(text)
    places = [(p.path, p.value) for p in read if p.path != "note"]
    assert ("data.inputs", "/lustre/in/first") in places
    assert ("data.inputs", "/lustre/in/last") not in places  # past the cut
    assert ("output.artifacts", "s3://northwind-results/run") in places  # the next line is read
    [note] = [p for p in read if p.path == "note"]
    assert note.line == 2
    assert note.value == (
        f"The command on line 2 runs past {LONGEST_COMMAND:,} characters: its first words were "
        "read, not the rest"
    )
    # what the unread part does is not known: "reads nothing" is not said
    quiet = commands.read("echo " + "step " * (LONGEST_COMMAND // 4) + "\n")
    assert [p.path for p in quiet] == ["note"]


def test_relative_data_folders_and_dataset_descriptions_are_read_but_org_name_is_a_hub_id():
    text = (
        "python train.py --data_path data/bowl-2018/stage1\n"
        "python yolo.py --data roads.yaml --dataset_dir northwind/clips\n"
    )
    assert found(text) == [
        ("data.inputs", "data/bowl-2018/stage1"),
        ("data.inputs", "roads.yaml"),
        ("data.inputs", "hf://datasets/northwind/clips"),
    ]


def test_a_model_an_earlier_step_wrote_under_its_output_is_not_read():
    text = (
        "srun python train.py --steps 10 --output outputs/run1\n"
        "srun python sample.py --checkpoint outputs/run1/model.pt\n"
    )
    assert found(text) == [("output.artifacts", "outputs/run1")]


def test_a_yacs_data_folder_is_read():
    text = "python tools/run_net.py --cfg c.yaml NUM_GPUS 1 DATA.PATH_TO_DATA_DIR /data/clips/\n"
    assert found(text) == [("data.inputs", "/data/clips/")]


def sky_description(text):
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    return result.description.to_data()


def test_a_commented_example_command_names_no_bucket():
    text = (
        "resources:\n  accelerators: L4:1\nrun: |\n  python fit.py --data /mnt/in/set\n"
        "  # python fit.py --remote s3://example-results/run\n"
    )
    assert sky_data(text) == (["/mnt/in/set"], [])


def test_a_copied_folders_glob_is_the_folder_and_the_setups_names_are_expanded():
    text = (
        "resources:\n  accelerators: L4:1\nsetup: |\n  W=tiny-net-v2\n"
        "  gsutil -m cp gs://weights-store/${W}/* ~/w\nrun: |\n  python serve_once.py ~/w\n"
    )
    inputs, _ = sky_data(text)
    assert inputs[0] == "gs://weights-store/tiny-net-v2"
    assert "gs://weights-store/${W}" not in inputs


def test_an_evaluations_answer_file_is_what_it_writes():
    text = (
        "resources:\n  accelerators: L4:1\nrun: |\n  python -m qa.answer --answer-file out.jsonl\n"
    )
    assert sky_data(text)[1] == ["out.jsonl"]


def test_a_run_that_only_readies_the_shell_after_a_setup_that_writes_a_config_reads_nothing():
    text = (
        "resources:\n  accelerators: L4:1\nworkdir: .\nsetup: |\n  uv sync\n"
        "  cat > ~/.aws/config <<CONF\n  [default]\n  region = eu-west-1\n  CONF\n"
        "run: |\n  cd ~/sky_workdir\n  source .venv/bin/activate\n"
    )
    assert sky_description(text)["data"] == {"no_inputs": True}


def test_keys_written_into_a_settings_file_from_the_environment_are_credentials():
    text = (
        "resources:\n  accelerators: L4:1\nsetup: |\n  cat > ~/.store/keys <<K\n"
        "  store_key_id = ${STORE_ACCESS_KEY}\n  store_secret = ${STORE_SECRET_KEY}\n"
        "  store_region = ${STORE_REGION}\n  K\nrun: |\n  nvidia-smi\n"
    )
    assert sky_description(text)["work"]["credentials"] == ["STORE_ACCESS_KEY", "STORE_SECRET_KEY"]
    # a shell assignment (no spaces around `=`) is not a settings file's line
    shell = "resources:\n  accelerators: L4:1\nrun: |\n  T=${STORE_ACCESS_KEY}\n  nvidia-smi\n"
    assert "credentials" not in sky_description(shell).get("work", {})


def test_a_model_the_run_names_by_a_variable_the_setup_sets_is_no_hub_id():
    text = (
        "resources:\n  accelerators: L4:1\nsetup: |\n  MODEL_PATH=~/tiny-net\n"
        '  echo "export MODEL_PATH=${MODEL_PATH}" >> ~/.bashrc\n'
        "run: |\n  python -m qa.answer --model-path $MODEL_PATH --answer-file out.jsonl\n"
    )
    inputs, _ = sky_data(text)
    assert "hf://$MODEL_PATH" not in inputs
    # set at launch, it still is one
    launch = "envs:\n  MODEL_PATH:\nrun: |\n  python -m qa.answer --model-path $MODEL_PATH\n"
    assert sky_data(launch)[0] == ["hf://$MODEL_PATH"]


def test_compose_bringing_services_up_in_the_foreground_of_a_task_with_ports_is_a_server():
    from jobs.jobformat.realtime import ends_serving

    up = "cd /srv && docker compose -f stack.gpu.yml up\n"
    assert ends_serving(up, opens_ports=True)
    assert not ends_serving(up)  # no ports opened: it may be a batch stack that ends
    assert not ends_serving("docker compose up -d\n", opens_ports=True)  # in the background


def test_apptainer_binds_attached_or_as_mount_fields_and_the_users_name_in_a_path():
    # `-B/x:/x` (getopt reads the value attached) and `$(whoami)`, the user's name as `$USER` is
    text = (
        "singularity exec -B/work/$(whoami):/work/$(whoami) /work/$(whoami)/img/seg.sif "
        "python /work/$(whoami)/seg/prep.py\n"
    )
    assert found(text) == [
        ("work.code", "/work/$(whoami)"),
        ("work.image", "/work/$(whoami)/img/seg.sif"),
    ]
    # any other command's output is still not known before the job runs
    assert found("singularity exec $(ls -d /img/*)/seg.sif python x.py\n") == []
    # `--mount type=bind,src=…,dst=…` is one bind; `--no-mount bind-paths` takes a value
    text = (
        "apptainer exec --mount type=bind,src=/lab/footage/input,dst=/pipe/input "
        "--mount type=bind,src=/lab/store,dst=/opt/_store,ro "
        "--mount type=bind,src=/lab/seg,dst=/mnt --no-mount bind-paths /lab/img/seg.sif "
        "Rscript /mnt/run.R\n"
    )
    assert found(text) == [
        # a folder named for what its program loads
        ("data.inputs", "/lab/footage/input"),
        ("data.unclassified", "/opt/_store -> /lab/store"),
        ("work.code", "/lab/seg"),
        ("work.image", "/lab/img/seg.sif"),
    ]


def test_node_software_bound_from_a_system_folder_into_one_is_not_data():
    text = "srun --container-image=seg:1 --container-mounts=/opt/mpi-4.1:/opt/mpi,/lab/r:/r t.sh\n"
    assert ("data.unclassified", "/r -> /lab/r") in found(text)
    assert not any("/opt/mpi" in str(v) for _, v in found(text))


def test_a_bash_array_of_values_and_a_touched_marker_read_nothing():
    text = "nvidia-smi\nSEEDS=(11 22 33);\nfor s in ${SEEDS[@]}; do\n  echo $s\ndone\n"
    assert found(text) == [("data.no_inputs", True)]
    assert found("sleep 30 &\nwait\ntouch done.marker\n") == [("data.no_inputs", True)]


def test_a_job_resubmitting_itself_reads_nothing_but_another_script_submitted_is_work():
    for again in ('sbatch "$0"', "sbatch ${BASH_SOURCE[0]}", 'sbatch $BASH_SOURCE "$@"'):
        assert found(f"sleep 60 &\nwait\n{again}\n") == [("data.no_inputs", True)]
    assert found("sleep 60\nsbatch next_stage.sh\n") == []
    assert found("sleep 60\nsbatch $NEXT\n") == []


def test_a_restart_from_a_file_the_script_tests_for_is_its_checkpoint_and_resumes():
    text = (
        "if [ -f run/state.chk ]; then\n  simulate --restart run/state.chk\nelse\n  simulate\nfi\n"
    )
    assert found(text) == [
        ("request.checkpoint_location", "run/state.chk"),
        ("request.preemptible", True),
    ]
    # a file tested for and handed to another option is no checkpoint
    assert found("if [ -f opts.yaml ]; then\n  simulate --config opts.yaml\nfi\n") == []


def test_a_data_file_the_job_stops_without_is_read():
    text = (
        'FEATS=data/feats_v2.npz\nif [ ! -f "$FEATS" ]; then\n  echo "make it first"\n'
        "  exit 1\nfi\npython fit.py\n"
    )
    assert found(text) == [("data.inputs", "data/feats_v2.npz")]
    assert found("[ -f /lake/tiles.parquet ] || exit 2\npython fit.py\n") == [
        ("data.inputs", "/lake/tiles.parquet")
    ]
    # not a data file, a test that does not stop the job, or a file a step of the job made
    assert found("if [ ! -f cfg.yaml ]; then\n  exit 1\nfi\npython fit.py\n") == []
    assert found("if [ ! -f data/a.npz ]; then echo none; fi\npython fit.py\nexit 1\n") == []
    made = "python prep.py --output_dir /x/feats\nif [ ! -f /x/feats/b.csv ]; then\n  exit 1\nfi\n"
    assert found(made) == [("output.artifacts", "/x/feats")]


def test_a_function_argument_taken_before_a_shift_names_no_place():
    text = (
        'run_one () {\n    local tag="$1"; shift\n'
        '    python gen.py --out-dir "/lake/sweep/$tag" "$@"\n}\n'
        "run_one a --steps 8\n"
    )
    assert ("output.artifacts", "/lake/sweep/$tag") not in found(text)


def test_a_shell_function_is_read_where_it_is_called_with_that_calls_arguments():
    text = (
        "score() {\n"
        '  local data="$1"\n'
        '  python eval.py --data_path "$data" --output_dir "${2:-/lustre/out/default}"\n'
        "}\n"
        "score /lustre/ds/dev /lustre/out/dev\n"
        "score /lustre/ds/test\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/ds/dev"),
        ("output.artifacts", "/lustre/out/dev"),
        ("data.inputs", "/lustre/ds/test"),
        ("output.artifacts", "/lustre/out/default"),
    ]


def test_a_function_never_called_is_read_as_written_and_a_recursive_one_once():
    never = 'cleanup() {\n  rm -rf "$1"\n  aws s3 sync /lustre/out s3://vault/out\n}\n'
    assert ("output.artifacts", "s3://vault/out") in found(never)
    recursive = "go() {\n  python t.py --data_path $1\n  go /lustre/b\n}\ngo /lustre/a\n"
    # (the call inside itself is not followed again: read once, with the outer call's value)
    assert found(recursive, shared_disk=True) == [("data.inputs", "/lustre/a")]


def test_a_functions_shifted_arguments_and_labels_are_read_as_the_shell_does():
    text = (
        "OUT=/lustre/sweep\n"
        "run_cfg() {\n"
        '  local id="$1"; shift\n'
        '  local model="$1"; shift\n'
        '  python sample.py --init_checkpoint "$model" --output_dir "$OUT/$id" "$@"\n'
        "}\n"
        "run_cfg s64 /lustre/runs/best.pt --data /lustre/ds/x\n"
    )
    # `shift` moves the arguments on; the label (`s64`) names the call, so what is built
    # from it (`$OUT/$id`) is each call's own place, left unsaid; "$@" is the rest, as given.
    assert sorted(found(text, shared_disk=True)) == [
        ("data.inputs", "/lustre/ds/x"),
        ("data.inputs", "/lustre/runs/best.pt"),
    ]


# --- set seen-t (7 Dec 2026, third session): batch generation, embedding and feature extraction -------------


def test_a_model_option_given_a_weights_file_under_the_working_directory_reads_it():
    text = "python sample.py --model_path weights/unet_64.pt --clf_path weights/clf.pt\n"
    assert ("data.inputs", "weights/unet_64.pt") in found(text)
    # a Hub id has no extension, and a file a step of the job wrote is not read
    assert found("python sample.py --model_path northwind/unet-64\n") == [
        ("data.inputs", "hf://northwind/unet-64")
    ]
    made = "python fit.py -o runs/a/net.pt\npython sample.py --model runs/a/net.pt\n"
    assert ("data.inputs", "runs/a/net.pt") not in found(made)


def test_a_program_named_for_what_it_makes_saves_its_product_not_checkpoints():
    index = "python build_index.py --corpus_path docs.jsonl --save_dir /proj/indexes/e5\n"
    assert ("output.artifacts", "/proj/indexes/e5") in found(index)
    assert ("request.checkpoint_location", "/proj/indexes/e5") not in found(index)
    module = "python -m tools.embed_corpus --save-dir /proj/vectors\n"
    assert ("output.artifacts", "/proj/vectors") in found(module)
    # a trainer's, or one saving on a schedule, is still the checkpoint place
    assert ("request.checkpoint_location", "/proj/ck") in found(
        "python train_sampler.py --save_dir /proj/ck\n"
    )
    assert ("request.checkpoint_location", "/proj/ck") in found(
        "python generate.py --save_dir /proj/ck --save_every 100\n"
    )


def test_a_tools_output_data_file_and_the_files_it_is_given_before_it():
    text = "slidetool encode /proj/a.h5 /proj/b.h5 --output /proj/case.h5\n"
    assert found(text) == [
        ("output.artifacts", "/proj/case.h5"),
        ("data.inputs", "/proj/a.h5"),
        ("data.inputs", "/proj/b.h5"),
    ]
    # a launcher's --output is its log, a download's is the fetch rules' business
    assert ("output.artifacts", "run.csv") not in found("srun --output run.csv hostname\n")
    # an option's value is not a bare argument
    assert ("data.inputs", "ref.csv") not in found(
        "python join.py --lookup ref.csv left.csv -o /proj/joined.parquet\n"
    )
    assert ("data.inputs", "left.csv") in found(
        "python join.py --lookup ref.csv left.csv -o /proj/joined.parquet\n"
    )


def test_a_file_given_to_a_program_named_for_reading_it_is_its_input():
    assert found("python extract_features.py signals_6000.h5 $SLURM_ARRAY_TASK_ID\n") == [
        ("data.inputs", "signals_6000.h5")
    ]
    # a generator's bare argument may be what it writes
    assert found("python generate_data.py synthetic.h5\n") == []


def test_an_option_naming_what_describes_the_data_reads_it_json_too():
    text = (
        "python -m clip.embed --clip-metadata-path /proj/captions.json "
        "--config_path /proj/run.json --output-path /proj/emb/\n"
    )
    assert found(text) == [
        ("data.inputs", "/proj/captions.json"),
        ("output.artifacts", "/proj/emb/"),
    ]


def test_a_bind_of_the_working_directory_after_cd_is_the_code_the_container_runs():
    text = (
        "cd /proj/scene-net\n"
        'singularity exec --nv --bind "$(pwd):/mnt" --pwd /mnt net.sif python3 infer.py\n'
    )
    assert ("work.code", "/proj/scene-net") in found(text)
    home = "cd $HOME/scene-net\napptainer exec -B .:/app net.sif python /app/infer.py\n"
    assert ("work.code", "$HOME/scene-net") in found(home)
    # without a folder changed into, the working directory stays unsaid
    assert not [
        p for p in found("apptainer exec -B .:/app n.sif python /app/x.py\n") if p[0] == "work.code"
    ]


def test_a_dataset_name_the_caller_gives_as_an_argument_is_no_place():
    assert found('python embed.py --dataset_name "$1" --split "$2"\n') == []
    # a variable named for the data still is one
    assert ("data.inputs", "$DATA_DIR") in found(
        "DATA_DIR=$1\npython embed.py --dataset_name_or_path $DATA_DIR\n"
    )


# --- 7 Dec 2026, third session, set seen-p (fine-tuning language and vision-language models) ---------------


def test_an_exporters_folder_and_a_relative_output_folder_under_data_are_written():
    text = (
        "llamafactory-cli export --model_name_or_path /models/base-7b \\\n"
        "    --adapter_name_or_path /runs/adapter --export_dir /runs/merged\n"
    )
    assert ("output.artifacts", "/runs/merged") in found(text)
    # a relative folder under a folder named for results or data is a place, not a run's name
    assert ("output.artifacts", "data/tiny-distill") in found(
        "python sft.py --output_dir data/tiny-distill\n"
    )
    assert found("python sft.py --output_dir tiny-distill\n") == []


def test_a_data_file_by_its_relative_name_under_a_dataset_option_is_read():
    assert found("python tune.py --dataset_name data/pairs_train.json\n") == [
        ("data.inputs", "data/pairs_train.json")
    ]
    assert found("python finetune.py --data_path recipes_data.json\n") == [
        ("data.inputs", "recipes_data.json")
    ]
    # a file an earlier step wrote with a redirect is the job's own
    made = "cat parts/*.jsonl > joined.jsonl\npython finetune.py --data_path joined.jsonl\n"
    assert ("data.inputs", "joined.jsonl") not in found(made)
    # a Hub id is still a Hub dataset
    assert found("python tune.py --dataset_name northwind/pairs\n") == [
        ("data.inputs", "hf://datasets/northwind/pairs")
    ]


def test_a_file_in_a_folder_named_for_data_given_to_any_option_is_read():
    assert found("python fine_tuning/run.py -c cfg/a.yml -p datasets/tales_100k.train\n") == [
        ("data.inputs", "datasets/tales_100k.train")
    ]
    assert found("python convert.py -o data/out.bin\n") == [("output.artifacts", "data/out.bin")]
    # a test of the file hands it to no program
    assert ("data.inputs", "data/train.jsonl") not in found("[ -f data/train.jsonl ] && echo ok\n")


def test_the_output_of_a_script_in_r_or_julia_is_what_it_writes():
    # Rscript's and julia's script take the options after it, as python's does
    text = (
        "Rscript bp.R \\\n-p data/ukb_bmi.txt \\\n-t bmi.21001 \\\n-s data/snps.txt \\\n"
        "-o data/ukb_bmi.vgwas.txt\n"
    )
    assert found(text) == [
        ("data.inputs", "data/ukb_bmi.txt"),
        ("data.inputs", "data/snps.txt"),
        ("output.artifacts", "data/ukb_bmi.vgwas.txt"),
    ]
    assert found("julia --project=. run.jl -o results/run1.csv\n") == [
        ("output.artifacts", "results/run1.csv")
    ]
    # a data file by its kind under an option named for the input is read
    assert found("Rscript analyze.R --input data/x.csv --output results/y.csv\n") == [
        ("data.inputs", "data/x.csv"),
        ("output.artifacts", "results/y.csv"),
    ]
    assert found("python analyze.py --input_file cohort.parquet\n") == [
        ("data.inputs", "cohort.parquet")
    ]
    # not the -o of a program that is no script of the job's (a compiler's, a downloader's)
    assert found("R CMD SHLIB -o lib.so a.c\n") == []
    assert found("wget -o fetch.log https://example.org/x.R\n") == [
        ("data.inputs", "https://example.org/x.R")
    ]


def test_a_model_variable_set_from_a_commands_output_is_not_a_hub_id_given_at_launch():
    text = (
        "MODEL_NAME=$(grep -Po 'name: \"\\K[^\"]*' conf/model/small.yaml)\n"
        "python serve.py --model $MODEL_NAME\n"
    )
    assert found(text) == []
    # one the environment gives is still the Hub id set at launch
    assert found("python serve.py --model $MODEL_NAME\n") == [("data.inputs", "hf://$MODEL_NAME")]


def test_a_program_named_relative_to_a_bound_folder_in_apptainer_makes_that_folder_code():
    text = "singularity exec --nv --bind tuner:/tuner,scratch:/scratch t.sif sh tuner/run/ft.sh\n"
    assert found(text) == [
        ("work.code", "tuner"),
        ("data.unclassified", "/scratch -> scratch"),
        ("work.image", "t.sif"),
    ]


def test_the_working_folder_bound_by_pwd_is_the_code():
    text = 'apptainer exec --nv --bind "$(pwd):/app" t.sif python /app/src/train.py\n'
    assert ("work.code", "$PWD") in found(text)


def test_a_language_model_fine_tune_with_no_gpu_directive_is_not_cpu_only():
    [result] = jobformat.import_text(
        b"#!/bin/bash\n#SBATCH -N 1\n#SBATCH -p big\n"
        b"python -m tuner.scripts.train_sft --config $1\n"
    )
    assert result.description.request.no_accelerators is None
    [plain] = jobformat.import_text(b"#!/bin/bash\n#SBATCH -N 1\npython -m tuner.report\n")
    assert plain.description.request.no_accelerators is True


def test_outputs_a_loop_writes_side_by_side_are_their_folder():
    text = (
        "for CFG in lr1 lr2 lr3; do\n"
        "  python train.py --data_path /lustre/ds --output_dir /lustre/sweep/$CFG\n"
        "done\n"
        "for M in a b; do python eval.py --output_dir /lustre/eval/$M; done\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/ds"),
        ("output.artifacts", "/lustre/sweep"),
        # (two are two places, as the loop names them)
        ("output.artifacts", "/lustre/eval/a"),
        ("output.artifacts", "/lustre/eval/b"),
    ]


# --- 7 Dec 2026, third session: sets seen-b, seen-d and seen-g revisited ---------------------------------------


def sbatch_description(body):
    text = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\n" + body
    (result,) = jobformat.import_text(text.encode(), filename="job.sh")
    return result.description.to_data()


def test_a_folder_one_step_writes_and_a_later_step_reads_through_pwd_is_the_input():
    text = (
        "resources:\n  accelerators: L4:1\nrun: |\n"
        "  python make_set.py --output work/set/inputs\n"
        '  REQ="$PWD/work/set/inputs/items.jsonl"\n'
        '  python replay.py --request-jsonl "$REQ" --output work/set/first\n'
    )
    inputs, outputs = sky_data(text)
    assert inputs == ["work/set/inputs"]
    assert outputs == ["work/set/first"]


def test_a_helper_script_named_for_stopping_programs_reads_nothing():
    text = (
        "resources:\n  accelerators: L4:1\nsetup: |\n"
        "  git clone https://github.com/example-org/tool.git\n  cd tool && pip install -e .\n"
        "  bash scripts/killall_servers.sh\n"
    )
    assert sky_description(text)["data"] == {"no_inputs": True}
    assert commands.STOP_SCRIPT.search("./stop_workers.sh")
    assert not commands.STOP_SCRIPT.search("scripts/stopwatch.sh")


def test_an_any_of_choice_naming_an_instance_takes_only_the_accelerators_it_has():
    text = (
        "resources:\n  accelerators: {L40S:1, A100:1, L4:1}\n  any_of:\n"
        "    - cloud: aws\n      instance_type: g6e.2xlarge\n"
        "    - cloud: gcp\n      accelerators: L4:1\n"
        "    - cloud: oci\n      accelerators: A100:1\nrun: |\n  python fit.py\n"
    )
    types = [a["type"] for a in sky_description(text)["request"]["accelerators"]]
    assert types == ["L40S", "L4", "A100"]


def test_a_server_given_an_idle_limit_is_not_said_to_run_until_stopped():
    text = (
        "resources:\n  accelerators: L4:1\n  ports: 8000\nenvs:\n  MAX_IDLE_MINUTES: 20\n"
        "run: |\n  python -m uvicorn app:api --host 0.0.0.0 --port 8000\n"
    )
    realtime = sky_description(text)["realtime"]
    assert realtime == {"serves_requests": True}
    no_limit = text.replace("  MAX_IDLE_MINUTES: 20\n", "  PORT: 8000\n")
    assert sky_description(no_limit)["realtime"]["finishes_on_its_own"] is False


def test_a_settings_file_sent_to_the_node_that_no_command_names_is_not_code():
    text = (
        "resources:\n  accelerators: L4:1\nfile_mounts:\n  /app/fit.py: ./fit.py\n"
        "  /app/conf/small.yaml: ./conf/small.yaml\nrun: |\n"
        "  cd /app && python fit.py --config ${CONFIG}\n"
    )
    assert sky_description(text)["work"]["code"] == ["./fit.py"]
    named = text.replace("${CONFIG}", "conf/small.yaml")
    assert sky_description(named)["work"]["code"] == ["./fit.py", "./conf/small.yaml"]


def test_kubernetes_secrets_put_in_the_pod_environment_are_credentials():
    text = (
        "resources:\n  accelerators: L4:1\nrun: |\n  python fit.py\nconfig:\n  kubernetes:\n"
        "    pod_config:\n      spec:\n        containers:\n          - envFrom:\n"
        "              - secretRef:\n                  name: team-keys\n"
        "            env:\n              - name: TOKEN\n                valueFrom:\n"
        "                  secretKeyRef:\n                    name: store-token\n"
        "                    key: value\n"
    )
    assert sky_description(text)["work"]["credentials"] == ["team-keys", "store-token"]


def test_secrets_given_as_a_list_of_stored_secrets_are_credentials():
    text = (
        "resources:\n  accelerators: L4:1\nsecrets:\n  - secrets:HF_TOKEN\n  - STORE_LOGIN\n"
        "run: |\n  python fit.py\n"
    )
    assert sky_description(text)["work"]["credentials"] == ["HF_TOKEN", "STORE_LOGIN"]


def test_a_pre_shared_key_is_a_credential():
    text = "resources:\n  accelerators: L4:1\nenvs:\n  SHARD_PSK: ''\nrun: |\n  python serve.py\n"
    assert sky_description(text)["work"]["credentials"] == ["SHARD_PSK"]


def test_an_option_loop_override_leaves_the_scripts_default_standing():
    from jobs.jobformat.envs import script_variables

    text = (
        'DATA="data/sets/train"\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n'
        '    --data)\n      DATA="$2"\n      shift 2\n      ;;\n  esac\ndone\n'
    )
    assert script_variables(text).values["DATA"] == "data/sets/train"
    assert "DATA" not in script_variables("DATA=$1\n").values
    # an override at the script's first column always happens: the default is gone
    assert "DATA" not in script_variables("DATA=data/sets/train\nDATA=$1\n").values


def test_two_defaults_in_the_arms_of_a_case_leave_the_name_unset():
    from jobs.jobformat.envs import script_variables

    text = (
        'case "$KIND" in\n  small) NET=${NET:-org/net-small} ;;\n'
        "  large) NET=${NET:-org/net-large} ;;\nesac\n"
    )
    assert "NET" in script_variables(text).ambiguous


def test_a_variable_set_to_a_data_file_in_each_branch_is_read_as_written():
    body = (
        'if [ "$S" = a ]; then\n  TRAIN=sets/a/train.jsonl\nelse\n  TRAIN=sets/b/train.jsonl\nfi\n'
        'python fit.py --train "$TRAIN"\n'
    )
    assert [i["location"] for i in sbatch_description(body)["data"]["inputs"]] == ["$TRAIN"]


def test_a_model_location_option_is_read():
    assert found("python tune.py --model_loc /models/base-1b --out_dir runs/x\n")[0] == (
        "data.inputs",
        "/models/base-1b",
    )


def test_an_array_of_one_task_is_no_shards():
    text = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --array=1\npython fit.py\n"
    (result,) = jobformat.import_text(text.encode(), filename="job.sh")
    work = result.description.to_data().get("work", {})
    assert "shape" not in work and "shards" not in work


def test_a_path_assigned_never_used_and_given_outright_is_read_where_it_is_given():
    text = "MODEL_PATH=/models/net\npython - <<'PY'\nopen('a.csv')\nPY\npython fit.py --gpt-model /models/net/\n"
    assert [v for p, v in found(text) if p == "data.inputs"] == ["a.csv", "/models/net/"]
    # never used and given nowhere else, it is still the variable the convention reads
    assert found("MODEL_PATH=/models/net\npython fit.py --lr 1\n") == [
        ("data.inputs", "/models/net")
    ]


def test_a_file_the_jobs_python_opens_to_read_is_an_input():
    text = "python - <<'PY'\nimport json\nwith open(\"../split.json\") as f:\n    print(f)\nPY\n"
    assert ("data.inputs", "../split.json") in found(text)
    written = "python - <<'PY'\nwith open(\"out.json\", \"w\") as f:\n    f.write('x')\nPY\n"
    assert ("data.inputs", "out.json") not in found(written)
    settings = "python - <<'PY'\nwith open(\"conf/run.yaml\") as f:\n    print(f)\nPY\n"
    assert ("data.inputs", "conf/run.yaml") not in found(settings)


def test_a_role_model_option_given_a_folder_is_read():
    assert ("data.inputs", "/models/coder/") in found("python run.py --gpt-model /models/coder/\n")
    assert found("python run.py --gpt-model gpt-4o\n") == []
    assert found("python run.py --output-model /models/new/\n") == []


def test_an_env_model_that_inline_only_commands_never_use_is_not_read():
    text = (
        "envs:\n  MODEL_NAME: org/net-1b\nresources:\n  accelerators: L4:1\nrun: |\n"
        "  python -c \"\n  import time\n  print('waiting')\n  time.sleep(5)\n  print('done')\"\n"
    )
    assert sky_description(text)["data"] == {"no_inputs": True}
    program = text.replace('python -c "', 'python serve.py\n  python -c "')
    assert sky_data(program)[0] == ["hf://org/net-1b"]


def test_a_compute_cluster_kept_up_serves_and_one_started_for_a_driver_does_not():
    from jobs.jobformat.realtime import ends_serving

    # A Ray node told to block, started in the background, then an endless sleep
    head = "srun -w $HEAD ray start --head --port=6400 --block &\nsleep 5\nsleep infinity\n"
    assert ends_serving(head)
    # Ray's and Spark's daemons return at once: an endless sleep keeps them up…
    assert ends_serving("ray start --head --port=6400\nsleep inf\n")
    assert ends_serving("$SPARK/sbin/start-master.sh\nwhile true; do sleep 60; done\n")
    # …a `wait` does not wait for them, and a driver that ends ends the job
    assert not ends_serving("ray start --head --port=6400\nwait\n")
    assert not ends_serving("srun ray start --head --block &\nsleep 10\npython -u tune.py\n")
    assert not ends_serving("start-master.sh\nspark-submit --master spark://h:7077 job.py\n")
    # A Dask worker or scheduler in the foreground takes work until stopped
    assert ends_serving("dask-worker --nthreads 8 --scheduler-file ~/sched.json\n")
    assert ends_serving("srun dask scheduler --port 8786\n")
    assert not ends_serving("dask-scheduler &\nsrun dask-worker tcp://h:8786 &\npython calc.py\n")


def test_ray_workers_held_for_the_head_nodes_trainer_are_batch():
    from jobs.jobformat.realtime import ends_serving

    split = (
        'if [ "$SKYPILOT_NODE_RANK" == "0" ]; then\n'
        "  ray start --head --port=6379 --dashboard-host=0.0.0.0\n"
        "  python3 -m verl.trainer.main_ppo trainer.nnodes=2\n"
        "else\n"
        "  sleep 15\n"
        "  ray start --address $HEAD_IP:6379 --disable-usage-stats\n"
        "  {worker}\n"
        "fi\n"
    )
    # Workers join the head's cluster and wait (or block in the join): the trainer ends the job
    assert not ends_serving(split.format(worker="sleep infinity"))
    blocking = split.replace("--disable-usage-stats\n  {worker}", "--block")
    assert not ends_serving(blocking)
    # A head that only keeps the cluster up, or a worker branch that also serves, still serves
    kept_up = split.replace("python3 -m verl.trainer.main_ppo trainer.nnodes=2", "sleep infinity")
    assert ends_serving(kept_up.format(worker="sleep infinity"))
    assert ends_serving(split.format(worker="vllm serve org/m\n  sleep infinity"))
    # Without a split, a worker joined and kept up is a cluster member left running
    assert ends_serving("ray start --address $HEAD:6379\nsleep infinity\n")


def test_trl_vllm_server_and_a_program_named_by_a_variable():
    from jobs.jobformat.realtime import ends_serving

    assert ends_serving("srun python -m trl.scripts.vllm_serve --model org/m &\nwait\n")
    assert ends_serving("trl vllm-serve --model org/m --port 8001\n")
    # a reward function's file named so starts no server before the wait
    assert not ends_serving("python train.py reward.path=/r/reward_vllm_serve.py &\nwait\n")
    # the editor's CLI kept in a variable, run in its place
    tunnel = 'EDITOR_CLI="$HOME/opt/editor/code"\nexec "$EDITOR_CLI" tunnel --name box-1\n'
    assert ends_serving(tunnel)
    assert not ends_serving('TOOL="$HOME/bin/code"\n"$TOOL" --version\n')


def test_a_command_line_handed_to_a_launcher_is_read_word_by_word():
    text = 'python launch_on_ray.py "$VENV/bin/python -u /lab/tune.py --data /lab/sets/img"\n'
    assert ("data.inputs", "/lab/sets/img") in found(text)
    # a quoted message is not a command
    assert found('python notify.py "training done, data in /lab/sets/img"\n') == []


def test_apptainer_options_before_the_command_and_an_image_given_as_the_argument():
    text = "IMG=$1\napptainer -d exec $IMG python /lab/prep.py\n"
    assert ("work.image", "$IMG") in found(text)
    # an image variable the script neither sets nor is given names nothing
    assert not any(p == "work.image" for p, _ in found("apptainer exec $IMG python x.py\n"))


# --- set seen-q (7 Dec 2026, third session) ---------------------------------------------------------------


def test_a_fetch_that_looks_up_a_piece_of_another_url_reads_no_data():
    text = (
        'curl -LO "https://tools.example.org/rel/$(curl -Ls https://tools.example.org/rel/latest.txt)'
        '/bin/linux/amd64/ctl"\n'
    )
    assert "https://tools.example.org/rel/latest.txt" not in [v for _, v in found(text)]
    # a fetch of its own is still read
    assert ("data.inputs", "https://data.example.org/set.csv") in found(
        "curl -LO https://data.example.org/set.csv\n"
    )


def test_printing_gpu_words_or_listing_the_gpu_catalogue_is_no_gpu_use():
    from jobs.jobformat.sbatch import gpu_hint

    assert gpu_hint({}, 'echo "=== GPUs per worker: $WORKER_GPUS ==="\npython drive.py\n') is None
    assert gpu_hint({}, 'sky show-gpus --infra k8s || echo "no list"\n') is None
    # printing the devices the job was given, or a real command after the message, still is
    assert gpu_hint({}, 'echo "devices: $CUDA_VISIBLE_DEVICES"\n')
    assert gpu_hint({}, 'echo "check" && nvidia-smi\n')


def test_an_inference_engine_serving_a_model_is_gpu_work():
    text = "resources:\n  cpus: 8+\nrun: |\n  vllm serve /models/tiny --port 9000\n"
    assert "no_accelerators" not in sky_description(text).get("request", {})


def test_a_module_of_a_clone_run_by_its_lower_case_package_name_is_the_code():
    text = (
        "resources:\n  accelerators: L4:1\nsetup: |\n"
        "  git clone https://github.com/example/ChatKit --branch demo\n"
        "  cd ChatKit && pip install -e .\nrun: |\n  python -m chatkit.serve.worker --port 9000\n"
    )
    assert sky_description(text)["work"]["code"] == ["https://github.com/example/ChatKit@demo"]


def test_a_clone_made_outside_the_working_directory_is_not_reached_by_its_relative_paths():
    sections = [
        (
            "cd ~\ngit clone https://github.com/example/tool.git\ncd tool\npip install -e .\n"
            "cd ~/sky_workdir\n",
            "setup",
            1,
        ),
        ("python -m app.main --config conf/tool/run.yaml\n", "run", 10),
    ]
    assert commands.code_from_clones(sections) == []
    # made in the working directory, the same path is the clone's
    here = [("git clone https://github.com/example/tool.git\n", "setup", 1), sections[1]]
    assert [p.value for p in commands.code_from_clones(here)] == [
        "https://github.com/example/tool.git"
    ]


def test_dd_reads_its_if_and_writes_its_of_but_a_device_is_no_data():
    assert found("dd if=/scratch/disk.img of=/scratch/copy.img bs=4M\n") == [
        ("data.inputs", "/scratch/disk.img"),
        ("output.artifacts", "/scratch/copy.img"),
    ]
    assert found("echo start\ndd if=/dev/zero of=/scratch/blank bs=1M count=8\n") == [
        ("output.artifacts", "/scratch/blank"),
        ("data.no_inputs", True),
    ]
    text = (
        "resources:\n  cpus: 2\nfile_mounts:\n  /out:\n    source: s3://example-blobs\n"
        "run: |\n  dd if=/dev/urandom of=/out/blob bs=1M count=4\n"
    )
    assert sky_data(text)[1] == ["s3://example-blobs"]
    # every step reads nothing: the bucket it only writes into is not read either
    assert sky_description(text)["data"] == {"no_inputs": True}


def test_a_step_that_only_passes_on_the_status_is_not_the_last_step():
    from jobs.jobformat.realtime import ends_serving

    assert ends_serving(
        "python train.py\npython -m app.web_server --share | tee web.log\nexit $?\n"
    )
    assert not ends_serving("python train.py\nexit $?\n")


def test_several_containers_started_in_the_background_name_no_image_and_keep_serving():
    from jobs.jobformat.realtime import ends_serving

    run = (
        "docker rm -f $(docker ps -aq)\n"
        "docker run -d -p 8000:8000 example/notebook-a:1\n"
        "docker run -d -p 8001:8000 example/notebook-b:1\n"
    )
    assert "image" not in sky_description(
        f"resources:\n  cpus: 2\nrun: |\n  {run.replace(chr(10), chr(10) + '  ')}"
    ).get("work", {})
    assert ends_serving(run)
    # one container in the foreground is the job's image
    assert [
        p.value
        for p in commands.read("docker run example/batch:1 python go.py\n")
        if p.path == "work.image"
    ] == ["example/batch:1"]


def test_resource_choices_with_their_own_images_name_no_single_image():
    text = (
        "resources:\n  any_of:\n    - image_id: docker:example/rocm-run:1\n      accelerators: MI300:1\n"
        "    - image_id: docker:example/cuda-run:1\n      accelerators: L4:1\nrun: |\n  nvidia-smi\n"
    )
    assert "image" not in sky_description(text).get("work", {})
    same = text.replace("rocm-run", "cuda-run")
    assert sky_description(same)["work"]["image"] == "example/cuda-run:1"


def test_a_data_file_fetched_by_url_with_a_results_file_beside_it():
    assert found("batchtool -i https://data.example.org/q/batch.jsonl -o answers.jsonl\n") == [
        ("data.inputs", "https://data.example.org/q/batch.jsonl"),
        ("output.artifacts", "answers.jsonl"),
    ]


def test_a_raw_file_of_a_repository_given_as_data_is_not_its_code():
    text = (
        "resources:\n  accelerators: L4:1\nrun: |\n"
        "  batchtool -i https://raw.githubusercontent.com/example/demo/refs/heads/main/q.jsonl"
        " -o out.jsonl\n"
    )
    assert "code" not in sky_description(text).get("work", {})


def test_python_running_pip_and_git_remote_set_the_place_up():
    text = (
        "resources:\n  accelerators: L4:1\nworkdir: .\nsetup: |\n"
        "  python3 -m pip install -r requirements.txt\n"
        "  git remote set-url origin https://github.com/example/x.git\nrun: |\n  echo ready\n"
    )
    assert sky_description(text)["data"] == {"no_inputs": True}


def test_a_loop_over_the_files_of_a_mount_reads_it():
    text = (
        "resources:\n  cpus: 2\nfile_mounts:\n  /in:\n    source: s3://example-frames\n"
        'run: |\n  for f in /in/frame_*; do\n    python count.py "$f"\n  done\n'
    )
    assert sky_data(text)[0] == ["s3://example-frames"]


def test_places_of_one_kind_on_one_line_are_numbered_in_the_lines_order():
    line = (
        "batchtool -i https://data.example.org/q/batch.jsonl -o out.jsonl --model example/tiny-lm\n"
    )
    assert [v for p, v in found(line) if p == "data.inputs"] == [
        "https://data.example.org/q/batch.jsonl",
        "hf://example/tiny-lm",
    ]


def test_a_folder_made_for_a_trainer_saving_on_a_schedule_holds_its_checkpoints():
    text = (
        "RUN=/lake/runs/sweep-$(date +%F)\nmkdir -p $RUN\n"
        "tuner lm finetune $RUN --config model=tiny checkpoint_every_n_steps=250 dtype=bf16\n"
    )
    assert ("request.checkpoint_location", "/lake/runs/sweep-$(date +%F)") in found(text)
    # no schedule, or a folder the job did not make: no checkpoint place
    unscheduled = "mkdir -p /lake/out\ntuner lm finetune /lake/out --config model=tiny\n"
    assert all(p != "request.checkpoint_location" for p, _ in found(unscheduled))
    not_made = "tuner lm finetune /lake/out --config checkpoint_every_n_steps=250\n"
    assert all(p != "request.checkpoint_location" for p, _ in found(not_made))


def test_googles_software_downloads_are_not_data():
    text = (
        "curl -O https://dl.google.com/dl/cloudsdk/release/northwind-cli-linux.tar.gz\n"
        "tar -xf northwind-cli-linux.tar.gz\n"
    )
    assert all(p != "data.inputs" for p, _ in found(text))


def test_a_password_the_script_makes_itself_is_no_credential():
    text = 'pw=$(openssl rand -hex 8)\nray start --head --redis-password="$pw" --block &\n'
    assert found(text) == []
    # one read from a file or handed in from outside is a key the job is given
    assert ("work.credentials", "TOK") in found("TOK=$(cat ~/.tok)\npython a.py --api-key $TOK\n")
    assert found("python a.py --api-key $SVC_KEY\n") == [("work.credentials", "SVC_KEY")]


def test_a_list_in_a_configuration_override_gives_each_item():
    text = "python -m trainer data.train_files=[/lake/a.parquet,/lake/b.parquet] trainer.n=1\n"
    assert found(text) == [("data.inputs", "/lake/a.parquet"), ("data.inputs", "/lake/b.parquet")]
    # also as a dotted option, under a data section's paths
    text = 'torchrun sft.py train --dataset.paths="[/lake/tok/ids_*.npy]" --seq=8\n'
    assert found(text) == [("data.inputs", "/lake/tok/ids_*.npy")]


def test_home_installs_and_an_emptied_settings_file_mounted_are_no_data():
    text = (
        "srun --container-image=img --container-mounts=$HOME/.local:/root/.local,"
        "/dev/null:/root/.bashrc,/lake/in:/in python /opt/run.py\n"
    )
    assert found(text) == [("data.unclassified", "/in -> /lake/in")]


def test_a_mount_the_container_works_in_a_folder_of_holds_the_code():
    text = (
        "srun --container-image=img --container-mounts=$HOME/proj:/root/proj "
        'bash -c "cd /root/proj/tools; ./build.sh; python go.py"\n'
    )
    assert ("work.code", "$HOME/proj") in found(text)
    # a folder inside the mount, running the image's own program: use not told
    text = (
        "srun --container-image=img --container-mounts=/lake/x:/x bash -c 'cd /x/run1; /opt/go'\n"
    )
    assert ("data.unclassified", "/x -> /lake/x") in found(text)


def test_a_bash_c_script_over_several_lines_is_one_command_run_in_the_container():
    text = (
        "REPO=~/splats\nRDS=/rds/u/work\n"
        "apptainer exec --nv --bind $REPO:$REPO --bind $RDS:$RDS tgs.sif \\\n"
        '    bash -c "\n'
        "        cd $REPO/examples\n"
        "        python train_splats.py --scene chair \\\n"
        "            --steps 100\n"
        '    "\n'
    )
    got = found(text)
    # the folder it changes into is named through the variable: that mount holds the code
    assert ("work.code", "~/splats") in got
    assert ("data.unclassified", "/rds/u/work -> /rds/u/work") in got
    assert commands.logical_lines(text)[2][0] == 3  # one command from line 3 on
    # a quote left open by mistake joins a bounded number of lines
    assert len(commands.logical_lines('bash -c "a\n' + "echo x\n" * 500)) > 1


def test_pretrained_in_a_model_argument_list_given_as_a_word_is_the_model_read():
    text = 'lighteval vllm "pretrained=/lake/models/tiny-7b,dtype=bfloat16" "suite|task|0|0"\n'
    assert found(text) == [("data.inputs", "/lake/models/tiny-7b")]


def test_an_output_a_command_computes_is_kept_as_the_script_writes_it():
    text = 'OUT="$(pwd)/tokens"\npython convert.py --output_dir "$OUT"\n'
    assert found(text) == [("output.artifacts", "$OUT")]
    text = 'OUT="$(pwd)/tokens"\npython convert.py --output_dir "$OUT" --checkpoint_interval 500\n'
    assert ("request.checkpoint_location", "$OUT") in found(text)


def test_a_default_naming_another_variable_is_expanded():
    text = 'ROOT=/lake/p\nOUT="${OUT:-${ROOT}/tok}"\npython convert.py --output_dir "$OUT"\n'
    assert found(text) == [("output.artifacts", "/lake/p/tok")]


def test_a_bare_model_variable_from_the_scripts_argument_is_the_model():
    assert found("MODEL=$1\npython grpo.py --model $MODEL\n") == [("data.inputs", "$MODEL")]
    # set from the environment, a bare MODEL says nothing
    assert found("python grpo.py --model $MODEL\n") == []


def test_a_runtime_chosen_in_a_variable_runs_the_image():
    text = (
        "if docker ps; then\n  eng=docker\nelse\n  eng=podman\nfi\n"
        "IMG=registry.example/team/train:2\n${eng} run --rm $IMG bash go.sh\n"
    )
    assert ("work.image", "registry.example/team/train:2") in found(text)


def test_open_clip_logs_with_a_save_frequency_hold_the_checkpoints_and_latest_resumes():
    text = (
        "torchrun -m training.main --train-data '/lake/s-{0..9}.tar' --save-frequency 1 "
        "--resume latest --logs /lake/runs/\n"
    )
    got = found(text)
    assert ("request.checkpoint_location", "/lake/runs/") in got
    assert ("request.preemptible", True) in got


def test_dinos_saveckp_freq_makes_the_output_dir_the_checkpoint_place():
    text = (
        "python -m torch.distributed.launch --nproc_per_node=8 main_dino.py "
        "--data_path /lake/in1k/train --output_dir /lake/runs/vit-s --saveckp_freq 10\n"
    )
    got = found(text)
    assert ("request.checkpoint_location", "/lake/runs/vit-s") in got
    assert ("output.artifacts", "/lake/runs/vit-s") not in got
    # without a save interval the folder is what the run hands back
    text = "python main_dino.py --data_path /lake/in1k/train --output_dir /lake/runs/vit-s\n"
    assert ("output.artifacts", "/lake/runs/vit-s") in found(text)


def test_a_mixer_list_names_hub_datasets_between_their_weights():
    text = "python prep.py --dataset_mixer_list northwind/chat-a 1.0 northwind/chat-b 0.5 --x 1\n"
    assert found(text) == [
        ("data.inputs", "hf://datasets/northwind/chat-a"),
        ("data.inputs", "hf://datasets/northwind/chat-b"),
    ]


def test_a_clones_module_is_matched_by_the_repositorys_name_too():
    setup = (
        "git clone https://github.com/tide-lab/tideserve.git tideserve_src\n"
        "cd tideserve_src && pip install -e .\n"
    )
    run = "python -m tideserve.api --port 9000\n"
    got = commands.code_from_clones([(setup, "setup", 1), (run, "run", 1)])
    assert [p.value for p in got] == ["https://github.com/tide-lab/tideserve.git"]
    # a module of another name runs no program of the clone's
    other = "python -m http.server 9000\n"
    assert commands.code_from_clones([(setup, "setup", 1), (other, "run", 1)]) == []


def test_inline_python_reads_only_what_names_a_place_and_a_program_built_here_reads_nothing():
    def quiet(text):
        return ("data.no_inputs", True) in found(text)

    bench = 'python3 - <<"PY"\nimport torch\nx = torch.ones(8, device=torch.device("cuda"))\n'
    assert quiet(bench + 'print(f"{x.sum() / 8:.1f} per item")\nPY\n')
    assert not quiet(bench + 'y = torch.load("w/ones.pt")\nPY\n')
    assert not quiet('python3 - <<"PY"\nrows = list(csv_reader("tab.csv"))\nPY\n')
    assert quiet("module load cuda\nnvcc hi.cu -o hi\n./hi\n")
    assert quiet("mpicc ring.c -o ring\nsrun ./ring\n") is False  # srun's program is not shown
    assert not quiet("nvcc hi.cu -o hi\n./hi frames/\n")  # handed a folder: what it reads
    assert not quiet("./hi\n")  # not built here


def test_a_folder_named_for_data_as_a_programs_first_argument_is_read():
    assert found("python prep.py /lake/datasets/birds 16\n") == [
        ("data.inputs", "/lake/datasets/birds")
    ]
    assert ("data.inputs", "./data") in found("accelerate launch tune.py ./data --epochs 1\n")
    # a copy on the node's own disk, or a folder a step of the job wrote, is not what it reads
    assert found("python fit.py $SLURM_TMPDIR/data\n") == []
    assert ("data.inputs", "data") not in found(
        "wget -P data https://x.example/a.csv\npython fit.py data\n"
    )
    assert found("cp -r /lake/raw ./data\npython fit.py ./data\n") == []
    assert found("python make.py --output_dir /w/data/x\npython fit.py /w/data/x\n") == [
        ("output.artifacts", "/w/data/x")
    ]
    # another first argument says nothing
    assert found("python fit.py /lake/birds\n") == []


def test_packages_bound_at_the_containers_user_installs_are_software_not_data():
    text = "apptainer exec --nv --bind ~/pkgs/torch-2:$HOME/.local ~/t.sif python fit.py\n"
    got = found(text)
    assert not any(path == "data.unclassified" for path, _ in got)
    assert ("work.image", "~/t.sif") in got


# --- 7 Dec 2026, set seen-z (AI models in biology and chemistry) ---------------------------


def test_options_named_for_the_kind_of_file_they_hand_over_are_read():
    text = (
        "python design.py --pdb_path ./targets/kinase --out_folder ./designs/kinase\n"
        "python score.py --pdb motifs/site_a.pdb --sdf_file /lake/ligands/set1.sdf\n"
        'fold --fasta_paths "$1" --template_mmcif_dir /db/mmcif --output_report_pdb x/y.pdb\n'
    )
    assert found(text) == [
        ("data.inputs", "./targets/kinase"),
        ("output.artifacts", "./designs/kinase"),
        ("data.inputs", "motifs/site_a.pdb"),
        ("data.inputs", "/lake/ligands/set1.sdf"),
        ("data.inputs", "$1"),
        ("data.inputs", "/db/mmcif"),
        # (an option named for writing is not read)
    ]


def test_a_json_input_inside_the_folder_written_is_still_read_through_its_mount():
    text = (
        "D=/lake/runs/$1\n"
        "apptainer exec --nv -B $D:/work/in -B $D:/work/out -B /lake/params:/p img.sif \\\n"
        "  python run.py --json_path=/work/in/query.json --model_dir=/p --output_dir=/work/out\n"
    )
    got = found(text, shared_disk=True)
    assert got.index(("data.inputs", "/lake/runs/$1/query.json")) < got.index(
        ("data.inputs", "/lake/params")
    )
    assert ("output.artifacts", "/lake/runs/$1") in got


def test_a_model_dir_beside_a_structure_input_is_the_parameters_loaded():
    text = "predict --json_path=/in/a.json --model_dir=/lake/params --output_dir=/out/a\n"
    assert found(text) == [
        ("data.inputs", "/in/a.json"),
        ("data.inputs", "/lake/params"),
        ("output.artifacts", "/out/a"),
    ]
    # a trainer's own folder stays what it was (nothing said without resumption)
    assert found("python estimator.py --model_dir=/lake/runs/a --output_dir=/out\n") == [
        ("output.artifacts", "/out")
    ]


def test_a_weights_file_under_an_option_naming_a_checkpoint_is_loaded():
    text = (
        "python run_pretrained_sampler.py --sampler_checkpoint_path w/finetuned.pt\n"
        "python run.py --checkpoint_small_net ./params/net_v2.pt --seed 3\n"
    )
    assert found(text) == [
        ("data.inputs", "w/finetuned.pt"),
        ("data.inputs", "./params/net_v2.pt"),
    ]


def test_hydra_keys_named_for_input_output_prefix_and_weights():
    text = (
        "python scripts/sample.py inference.input_pdb=inputs/t.pdb "
        "inference.output_prefix=outputs/t1/ inference.ckpt_override_path=models/base.pt\n"
    )
    assert found(text) == [
        ("data.inputs", "inputs/t.pdb"),
        ("output.artifacts", "outputs/t1/"),
        ("data.inputs", "models/base.pt"),
    ]


def test_structure_predictors_bare_arguments():
    text = (
        "boltz predict ../queries/set_a --use_msa_server --out_dir ../preds\n"
        "colabfold_batch --num-recycle 3 /lake/fastas /lake/cf_out\n"
        "python3 run_pretrained_openfold.py /lake/fasta_dir /db/mmcif_files --output_dir ./\n"
    )
    got = found(text)
    assert [v for p, v in got if p == "data.inputs"] == [
        "../queries/set_a",
        "/lake/fastas",
        "/lake/fasta_dir",
        "/db/mmcif_files",
    ]
    assert [v for p, v in got if p == "output.artifacts"] == ["../preds", "/lake/cf_out", "./"]


def test_single_dash_long_input_and_output_options():
    text = "python3 ./fold.py -input ./q/a.a3m -output ./out/folds -name t\n"
    assert found(text) == [("data.inputs", "./q/a.a3m"), ("output.artifacts", "./out/folds")]


def test_a_place_used_only_in_lines_commented_out_says_nothing():
    text = (
        'data_dir="/lake/cells"\nresult_dir="/lake/results"\n'
        "# python old.py -i $data_dir -o $result_dir\n"
        "python run.py --experiment a_to_b\n"
    )
    assert found(text) == []


def test_a_name_derived_by_a_parameter_operation_is_kept_by_its_name():
    text = (
        "OUT=/lake/msas\nJSON=$(ls *.json | head -1)\nNAME=${JSON%.json}\n"
        "predict --json_path=/in//${JSON} --output_dir=${OUT}/${NAME}\n"
    )
    assert found(text) == [
        ("data.inputs", "/in/${JSON}"),  # (`//` is one `/`)
        ("output.artifacts", "/lake/msas/${NAME}"),
    ]


def test_a_file_one_step_writes_for_the_next_is_not_the_jobs_output():
    text = (
        "python parse.py --input_path=../pdbs/ --output_path=../pdbs/parsed.jsonl\n"
        "python design.py --jsonl_path ../pdbs/parsed.jsonl --out_folder ../pdbs/designs\n"
    )
    assert found(text) == [
        ("data.inputs", "../pdbs/"),
        ("output.artifacts", "../pdbs/designs"),
    ]


def test_a_resume_flag_set_when_the_checkpoint_is_there_resumes_from_it():
    text = (
        'FLAG=""\nif [ -f ckpts/last.pth ]; then\n    FLAG="--resume"\nfi\n'
        "torchrun --nproc_per_node=2 finetune.py --data_path /lake/cells.h5ad $FLAG\n"
    )
    got = found(text)
    assert ("request.checkpoint_location", "ckpts/last.pth") in got
    assert ("request.preemptible", True) in got


def test_a_store_a_program_reads_and_updates_in_place_is_read_and_written():
    from jobs.jobformat import mounts

    # read first by the program's input option, then written back: both
    text = "python add_field.py --src=gs://lake/grid.zarr --output_path=gs://lake/grid.zarr\n"
    assert mounts.script_locations(text) == (["gs://lake/grid.zarr"], ["gs://lake/grid.zarr"])
    # written first, then read: the job's own copy, not read from outside
    text = "gsutil cp -r out gs://lake/run1\npython eval.py --data gs://lake/run1\n"
    assert mounts.script_locations(text) == ([], ["gs://lake/run1"])
    # copied down and synced back up: its own files, written only
    text = "aws s3 sync s3://lake/ckpt ckpt\npython t.py\naws s3 sync ckpt s3://lake/ckpt\n"
    assert mounts.script_locations(text) == ([], ["s3://lake/ckpt"])


def test_review_cases_are_read_as_the_shell_and_the_programs_have_them():
    # A shift only some calls take leaves the later arguments unknown, not the next one.
    text = (
        'f() {\n  if [ "$1" = "-v" ]; then\n    shift\n  fi\n'
        '  python t.py --data_path "$1"\n}\nf /data/a /data/b\n'
    )
    assert ("data.inputs", "/data/b") not in found(text, shared_disk=True)
    # An exit in the other branch runs when the file is there: it is not required.
    text = (
        "if [ ! -f ckpt/model.pt ]; then\n  echo fresh\nelse\n  echo done\n  exit 1\nfi\n"
        "python train.py --output_dir /scratch/out\n"
    )
    assert ("data.inputs", "ckpt/model.pt") not in found(text, shared_disk=True)
    # Three options of one line under one folder stay three places.
    text = (
        "python convert.py --output_dir /l/u/out1 --export_dir /l/u/exp --out_folder /l/u/preds\n"
    )
    assert ("output.artifacts", "/l/u") not in found(text, shared_disk=True)
    # A molecule written out is no file.
    assert not found("python dock.py --smiles c1ccccc1.O\n", shared_disk=True)


def test_a_container_published_and_detached_by_the_runtimes_own_options():
    def serves(run):
        [result] = jobformat.import_text(
            f"resources:\n  accelerators: A100:1\nrun: |\n  {run}\n".encode()
        )
        return result.description.realtime.serves_requests

    assert serves("docker run -d -p 8888:8888 jupyter/base") is True
    assert serves("docker run -itd --name nb -p 8888:8888 jupyter/base") is True
    # The program's own `-dataset` after the image says nothing of the container.
    assert serves("docker run -p 6006:6006 img python train.py -dataset cifar") is not True


def test_a_container_left_up_serves_only_on_the_tasks_ports_and_while_only_checked():
    def serves(run):
        [result] = jobformat.import_text(
            f"resources:\n  ports: 8080\nrun: |\n  {run}\n".encode(), filename="t.yaml"
        )
        return result.description.realtime.serves_requests

    up = "docker run -d -p 8080:80 --name web img\n  "
    assert serves(up + "while ! curl -s http://localhost:8080; do sleep 5; done; echo ready")
    # each command after it is judged, not the line's first word; a stop ends what it served
    assert not serves(up + "echo started && python load_test.py; docker stop web")
    # a database published on its own port is no server of the task's port
    assert not serves("docker run -d -p 5432:5432 postgres; echo db up")
    # a program of the job's run in the container in the foreground runs and ends
    assert not serves("docker run --rm -p 8080:8080 img python eval.py --data /d")
    assert serves("docker run --rm -p 8080:8080 img")


def test_hubert_label_tools_bare_arguments_are_read_and_written():
    # fairseq's simple_kmeans tools: paths by position; the split, shards and layer are no paths.
    text = (
        'manifests="/lake/wren/manifests"\n'
        'feats="/lake/wren/feats"\n'
        "python dump_mfcc_feature.py $manifests train 2 0 $feats --sample_rate 16000\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lake/wren/manifests"),
        ("output.artifacts", "/lake/wren/feats"),
    ]
    hubert = "python dump_hubert_feature.py /lake/tsv valid /models/hb.pt 9 1 0 /lake/hb_feats\n"
    assert found(hubert, shared_disk=True) == [
        ("data.inputs", "/lake/tsv"),
        ("data.inputs", "/models/hb.pt"),
        ("output.artifacts", "/lake/hb_feats"),
    ]
    # A later step reads what the first one wrote: not an input again.
    chain = (
        "python dump_mfcc_feature.py /lake/tsv train 1 0 /lake/f\n"
        "python learn_kmeans.py /lake/f train 1 /lake/km.bin 100\n"
    )
    assert found(chain, shared_disk=True) == [
        ("data.inputs", "/lake/tsv"),
        ("output.artifacts", "/lake/f"),
        ("output.artifacts", "/lake/km.bin"),
    ]


def test_a_vocabulary_path_and_a_weights_file_given_to_model_are_read():
    text = (
        "python src/train.py --vocab_path=/home/ana/vocab.json"
        " --train_trans=/scratch/ana/train.csv\n"
    )
    assert ("data.inputs", "/home/ana/vocab.json") in found(text, shared_disk=True)
    # `--model /abs/x.pt`: a file of weights is no Hub id, wherever it lies
    text = "python main.py --mode score --model '/nfs/ana/ckpts/epoch-3.pt'\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/nfs/ana/ckpts/epoch-3.pt")]


def test_a_model_name_written_as_a_path_is_the_model_read():
    text = "python finetune.py --model_name ../models/heron-ft --output_dir ../models/heron-ft2\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "../models/heron-ft"),
        ("output.artifacts", "../models/heron-ft2"),
    ]
    # a run's label stays unsaid
    assert found("python train.py --model_name heron_small\n") == []


def test_an_input_folder_the_caller_gives_is_read_by_its_name():
    text = 'INPUT_DIR=$1\npython transcribe.py --input_dir "$INPUT_DIR"\n'
    assert found(text, shared_disk=True) == [("data.inputs", "$INPUT_DIR")]
    # set in the file and handed to a bare --input_dir: as before, unsaid
    assert found("INPUT_DIR=/lake/x\npython step.py --input_dir $INPUT_DIR\n") == []


def test_an_input_file_the_caller_gives_is_read_by_its_name():
    text = 'infile=$1; shift\nsrun ./worker.py --singleshot -c conf "$infile" "$@"\n'
    assert found(text, shared_disk=True) == [("data.inputs", "$infile")]
    text = 'INPUT_FILE=$1\n./convert "$INPUT_FILE"\n'
    assert found(text, shared_disk=True) == [("data.inputs", "$INPUT_FILE")]
    # set in the file, not given by the caller: as before, unsaid
    assert found("infile=/lake/x.h5\n./worker.py $infile\n") == []
    # a name that only starts so (`infile_list`) is not the input
    assert found("infile_list=$1\n./worker.py $infile_list\n") == []


def test_audiocraft_pretrained_models_are_read_from_the_hub():
    text = (
        "dora run solver=musicgen/base continue_from=//pretrained/wren/tune-small"
        " dset=audio/train\n"
    )
    assert found(text) == [("data.inputs", "hf://wren/tune-small")]


def _imported(text):
    (result,) = jobformat.import_text(text.encode(), filename="sim.sbatch")
    return result.description.to_data()


def test_an_option_given_only_when_a_variable_is_set_is_not_the_image():
    text = (
        "#!/bin/bash\n#SBATCH --gpus=1\n"
        'apptainer exec --nv ${TOKEN:+--env TOKEN="$TOKEN"} ~/images/sim.sif python rollout.py\n'
    )
    assert _imported(text)["work"]["image"] == "~/images/sim.sif"


def test_a_folder_named_for_the_job_put_at_the_containers_tmp_is_scratch_not_data():
    text = (
        'SCR="$HOME/scratch/$SLURM_JOB_ID"\n'
        'singularity exec --bind "$SCR/cache:/tmp/cache" --bind /lake/maps:/maps sim.sif ./run\n'
    )
    assert sorted(found(text)) == [
        ("data.unclassified", "/maps -> /lake/maps"),
        ("work.image", "sim.sif"),
    ]


def test_a_save_path_naming_a_weights_file_under_the_working_folder_is_the_model_written():
    assert found("python train.py --env Hopper-v4 --save_path runs/hopper/policy.pt\n") == [
        ("output.artifacts", "runs/hopper/policy.pt")
    ]


def test_a_save_path_three_folders_deep_is_the_model_written_and_a_requeued_jobs_checkpoints():
    text = "save=exp/pascal/seg/92\nsrun python -u seg.py --save-path $save --port 1\n"
    assert found(text) == [("output.artifacts", "exp/pascal/seg/92")]
    # a bare name or two parts may be a run's name or a Hub id: unsaid
    assert found("python seg.py --save-path runs\n") == []
    # a job Slurm requeues starts the line again: the save folder is where it picks up
    script = "#!/bin/bash\n#SBATCH --requeue\n#SBATCH --gpus=1\n" + text
    (result,) = jobformat.import_text(script.encode(), filename="seg.sbatch")
    assert result.description.request.checkpoint_location == "exp/pascal/seg/92"
    assert result.description.output.artifacts is None


def test_logs_written_to_the_jobs_temporary_folder_alone_are_not_delivered():
    assert found("python offline.py --config cfg.yaml --log_dir $TMPDIR\n") == []
    assert found("python offline.py --log_dir $TMPDIR/run\ncp -r $TMPDIR/run /lake/runs\n") == [
        ("output.artifacts", "/lake/runs")
    ]


def test_a_packed_environment_is_software_and_results_copied_back_from_node_disk_are_output():
    text = (
        "cp /lake/envs/venv311.tar.gz $SLURM_TMPDIR/\n"
        "cp /lake/rl/buffer.hdf5 $SLURM_TMPDIR/\n"
        "cd $SLURM_TMPDIR\ntar -xzf venv311.tar.gz\nsource .venv/bin/activate\n"
        "python /lake/code/train.py\ncp ./results/returns.csv /lake/results/\n"
    )
    assert found(text) == [
        ("data.inputs", "/lake/rl/buffer.hdf5"),
        ("output.artifacts", "/lake/results/"),
    ]


def test_a_command_line_given_at_submission_is_not_said_to_be_cpu_only():
    data = _imported('#!/bin/bash\n#SBATCH -c 1\nsource ~/env.sh\nbash -c "$1"\nbash -c "$2"\n')
    assert "no_accelerators" not in data.get("request", {})
    data = _imported("#!/bin/bash\n#SBATCH -c 1\nsource ~/env.sh\npython rollout.py\n")
    assert data["request"]["no_accelerators"] is True


def test_a_gres_type_of_only_digits_names_no_gpu_model():
    (result,) = jobformat.import_text(
        b"#!/bin/bash\n#SBATCH --gres=gpu:40:1\npython train.py\n", filename="x.sbatch"
    )
    assert result.description.to_data()["request"]["accelerators"] == [{"count": 1}]
    assert any("--gres gpu:40:1" in n for n in result.notes)


def test_mpi4py_bandwidth_ports_and_the_stream_test_read_nothing():
    for program in (
        "python osu_latency.py",
        "./stream_c.exe",
        "numactl --interleave all ./stream_c",
    ):
        data = _imported(f"#!/bin/bash\n#SBATCH -c 4\nmodule load gcc\nmpirun {program}\n")
        assert data["data"]["no_inputs"] is True, program
    data = _imported("#!/bin/bash\n#SBATCH -c 4\nmpirun ./stream_solver\n")
    assert "no_inputs" not in data.get("data", {})


def test_a_colon_command_setting_a_default_gives_the_variable_its_value():
    from jobs.jobformat.envs import script_variables

    variables = script_variables(': "${CORPUS:=/lake/text/}"\n: ${RUNS:=./runs}\nRUNS=/x\n')
    assert variables.values["CORPUS"] == "/lake/text/"
    assert "RUNS" in variables.ambiguous
    given = script_variables(': "${CORPUS:=/lake/text/}"\n', {"CORPUS": "/other"})
    assert given.values["CORPUS"] == "/other"
    # a required variable (`:?`) and a default computed by a command set nothing
    assert script_variables(': "${IMG:?IMG not set}"\n: "${T:=$(date)}"\n').values == {}


def test_container_mounts_named_for_data_and_results_by_their_variables():
    text = (
        'SRC=${SRC:-"/lake/corpus"}\nOUT=${OUT:-"/lake/out"}\nDATADIR=${DATADIR:-"/lake/img"}\n'
        'RESULTS_DIR=/lake/res\nVOLS="-v $DATADIR:/data -v $RESULTS_DIR:/scores"\n'
        "docker run $VOLS -v $OUT:/results -v $SRC:/src img:1 ./run.sh\n"
    )
    # (RESULTS_DIR is an output where it is set; DATADIR alone says nothing until mounted)
    assert sorted(found(text)) == [
        ("data.inputs", "/lake/img"),
        ("data.unclassified", "/src -> /lake/corpus"),
        ("output.artifacts", "/lake/out"),
        ("output.artifacts", "/lake/res"),
        ("work.image", "img:1"),
    ]


def test_a_binarizers_destination_folder_and_a_converters_out_root_are_outputs():
    # seen-ae: fairseq-preprocess --destdir, a streaming converter's --out_root
    assert ("output.artifacts", "/data/lm-bin") in found(
        "fairseq-preprocess --only-source --trainpref /data/lm/train.txt --destdir /data/lm-bin\n"
    )
    assert found("python convert.py --dataset /data/raw/en --out_root /data/mds/en\n") == [
        ("data.inputs", "/data/raw/en"),
        ("output.artifacts", "/data/mds/en"),
    ]


def test_a_tokenizer_file_handed_to_a_preprocessor_is_read():
    assert found(
        "python tools/preprocess_data.py --input /data/c.jsonl --tokenizer-file /tok/t.json "
        "--output-prefix /data/c\n"
    ) == [
        ("data.inputs", "/data/c.jsonl"),
        ("data.inputs", "/tok/t.json"),
        ("output.artifacts", "/data/c"),
    ]


def test_wget_reads_its_url_list_and_writes_its_warc_archive():
    assert found("wget --timeout=5 -i seeds.txt --warc-file=crawl -O /dev/null\n") == [
        ("data.inputs", "seeds.txt"),
        ("output.artifacts", "crawl"),
    ]
    assert found("wget --input-file=seeds.txt\n") == [("data.inputs", "seeds.txt")]
    # another command's -i on the same line, and URLs from the input stream, are not wget's list
    assert found("wget -q -i seeds.txt && sed -i s/a/b/ notes.txt\n") == [
        ("data.inputs", "seeds.txt")
    ]
    assert found("cat urls.txt | wget -i -\n") == []


def test_output_of_a_python_module_run_as_the_program_is_written():
    assert ("output.artifacts", "out/dedup/news") in found(
        "python -m tools.minhash --column text --output out/dedup/news\n"
    )
    # not a module flag of another program (`-m` of a tool that is not Python)
    assert found("mytool -m fast --output out/dedup/news\n") == []


def test_a_pattern_of_files_under_a_folder_given_to_a_data_option_is_read():
    assert ("data.inputs", "corpus/news/*.txt") in found(
        'python dedup.py --data_files "corpus/news/*.txt"\n'
    )
    # a bare pattern names no folder, and one still holding a variable is a shell expression
    assert found('python dedup.py --data_files "*.txt"\n') == []
    assert found('python dedup.py --data_path "data/$X*"\n') == []


def test_an_output_option_given_a_value_a_command_makes_up_names_no_place():
    made = 'ARGS=$(echo "$OVERRIDES" | sed "s/ / -o /g")\npython -m tasks.train -o ${ARGS}\n'
    assert not [p for p in found(made) if p[0] == "output.artifacts"]
    # A date stamp is a place new each day, kept as written.
    dated = 'NOW=$( date -d "$T" "+%Y%m%d%H" )\npython run.py -o "$NOW"\n'
    assert ("output.artifacts", "$NOW") in found(dated, shared_disk=True)


def test_second_review_cases():
    # A model name built from the run's own folder is not a model read.
    assert not found(
        "OUT=/scratch/runs\npython train.py --model_name $OUT/exp1\n", shared_disk=True
    )
    # A label where a path was expected does not make the tool's output a file it reads.
    text = "python dump_hubert_feature.py manifest train /ckpt/hubert.pt 6 1 0 /feat\n"
    assert ("data.inputs", "/feat") not in found(text, shared_disk=True)
    # A run resuming from its own checkpoints reads nothing from outside.
    text = "python train.py --resume_from s3://b/ckpt --output_dir s3://b/ckpt\n"
    assert ("data.inputs", "s3://b/ckpt") not in found(text)
    # Data named with "env" in it is data, not a packed environment.
    text = "cp /data/atari_env_rollouts.tar.gz $TMPDIR/\npython t.py --data $TMPDIR/atari_env_rollouts.tar.gz\n"
    assert ("data.inputs", "/data/atari_env_rollouts.tar.gz") in found(text, shared_disk=True)


def test_every_output_of_a_line_and_the_files_before_each_read_once():
    # The line is walked once (jobformat_bench's line of outputs): each `-o` still names what
    # it writes, and the data files given before it in its own command are what it reads.
    text = (
        "python convert.py a.h5 -o /out/a.h5 b.h5 -o /out/b.h5; "
        "encode c.h5 --output /out/c.h5 && wget -O d.h5 --output fetch.log https://example.org/d\n"
    )
    assert found(text) == [
        ("output.artifacts", "/out/a.h5"),
        ("data.inputs", "a.h5"),
        ("output.artifacts", "/out/b.h5"),
        ("data.inputs", "b.h5"),
        ("output.artifacts", "/out/c.h5"),
        ("data.inputs", "c.h5"),
        ("data.inputs", "https://example.org/d"),
    ]


def test_the_places_of_a_long_line_keep_the_order_it_names_them_in():
    many = " ".join(f"--data /lustre/ds/part_{i}" for i in range(300))
    inputs = [v for p, v in found(f"python train.py {many} --input_file /lustre/first\n")]
    assert inputs[:3] == ["/lustre/ds/part_0", "/lustre/ds/part_1", "/lustre/ds/part_2"]
    assert len(inputs) == 301 and inputs[-1] == "/lustre/first"


def test_a_notebook_run_in_batch_writes_its_executed_copy():
    assert found(
        "jupyter nbconvert --execute --to=notebook --output=fit.exe.ipynb fit.ipynb\n"
    ) == [("output.artifacts", "fit.exe.ipynb")]
    assert found(
        "OUT=runs/a.ipynb\njupyter nbconvert --to notebook --execute x.ipynb --output $OUT\n"
    ) == [("output.artifacts", "runs/a.ipynb")]
    # papermill's second notebook; the values after -p are parameters, not notebooks
    assert found("papermill -p seed 1 -p note n.ipynb in.ipynb out/run.ipynb -k python3\n") == [
        ("output.artifacts", "out/run.ipynb")
    ]
    # rewritten in place, converted without running, or left where nbconvert puts it: unsaid
    assert found("jupyter nbconvert --to notebook --execute --inplace $1\n") == []
    assert found("jupyter nbconvert --to html --output report.html a.ipynb\n") == []
    assert found("jupyter nbconvert --to html --execute paga.ipynb\n") == []
    assert found("papermill in.ipynb\n") == []


def test_a_data_directory_exported_for_the_program_is_read():
    text = "export DATA_DIRECTORY=/users/me/parquet\npip install pandas\npython merge.py\n"
    assert found(text) == [("data.inputs", "/users/me/parquet")]
    assert found("data_directory=/lustre/d\npython fit.py --data $data_directory\n") == [
        ("data.inputs", "/lustre/d")
    ]


def test_a_string_comparison_in_a_test_is_not_a_file_read():
    # Inside [[ ]] `<` compares two strings; outside it still redirects a file into a program.
    text = 'if [[ "$LAST" < "$END_DATE" ]]; then\n  END_DATE=$LAST\nfi\npw.x < /data/scf.in\n'
    assert found(text) == [("data.inputs", "/data/scf.in")]


def test_a_file_fetched_into_a_python_environment_is_a_library_not_output():
    text = (
        "curl https://raw.example.org/lib/model_pb2.py "
        "-o /home/u/venv/lib/python3.9/site-packages/lib/model_pb2.py\npython eval.py\n"
    )
    assert not [p for p in found(text, shared_disk=True) if p[0] == "output.artifacts"]


def test_archives_unpacked_with_options_first_or_unzipped_are_read():
    text = (
        "tar -C $TMPDIR/data -vxzf /work/ws/segments.tar.gz\n"
        "tar -I pigz -xf /work/ws/labels.tar.gz -C $TMPDIR\n"
        "cd /scratch/ds/imagenet\nsrun -u unzip -q imagenet-challenge.zip\n"
        "unzip $TMPDIR/cache.zip -d $TMPDIR\npython train.py\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/work/ws/segments.tar.gz"),
        ("data.inputs", "/work/ws/labels.tar.gz"),
        ("data.inputs", "/scratch/ds/imagenet/imagenet-challenge.zip"),
    ]
    # On a cloud VM an archive in the working folder is one the job has just fetched.
    assert found("kaggle datasets download org/videos\nunzip -q videos.zip -d data\n") == []


def test_copies_to_a_swedish_clusters_node_disk_and_under_srun_are_staging():
    text = "cp -r /proj/eeg/DATA $SNIC_TMP\npython fit.py $SNIC_TMP\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/proj/eeg/DATA")]
    text = "srun -n 1 cp /proj/a/train.h5 $TMPDIR/\npython fit.py\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/proj/a/train.h5")]


def test_a_folder_copied_from_one_shared_place_to_another_is_a_transfer():
    # (a marker file touched in the copy after does not use it)
    text = "DIR=$1\nsrun cp -r $DIR/logs $DIR/*.out $DIR/final/\ntouch $DIR/final/finished.txt\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "$DIR/logs"),
        ("data.inputs", "$DIR/*.out"),
        ("output.artifacts", "$DIR/final/"),
    ]
    text = "cp -r /proj/raw/ /scratch/u/raw/\npython fit.py /scratch/u/raw/\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/proj/raw/")]
    # After the program ran, the copy is of its results.
    assert found("python fit.py\ncp -r /home/u/runs/ /proj/keep/\n", shared_disk=True) == []


def test_data_files_copied_from_one_shared_place_to_another_are_a_transfer():
    # A plain cp of data files (or of a folder's contents, read as the folder) before any
    # program has run is a transfer as `cp -r`'s is; each copy of a copy job is read.
    text = "cp /lustre/u/run/in.mat ./run/in.mat\ncp /lustre/u/run/out.mat ./run/out.mat\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/lustre/u/run/in.mat"),
        ("output.artifacts", "./run/in.mat"),
        ("data.inputs", "/lustre/u/run/out.mat"),
        ("output.artifacts", "./run/out.mat"),
    ]
    assert found("cp /n/lab/waves/* /n/lab/zs/\n", shared_disk=True) == [
        ("data.inputs", "/n/lab/waves"),
        ("output.artifacts", "/n/lab/zs/"),
    ]
    assert found("cp /home/u/a.csv /proj/keep/\n", shared_disk=True) == [
        ("data.inputs", "/home/u/a.csv"),
        ("output.artifacts", "/proj/keep/"),
    ]
    # Not a program, code, settings, a hidden file or a name with no extension; not after a
    # program ran (its results), nor on a cloud VM.
    for text in (
        "cp /home/u/run.sh /proj/keep/\n",
        "cp /home/u/.env ./\n",
        "cp /home/u/bin/tool /proj/bin/\n",
        "cp /home/u/config.yaml /proj/run/\n",
        "python fit.py\ncp /home/u/a.csv /proj/keep/\n",
    ):
        assert found(text, shared_disk=True) == [], text
    assert found("cp /home/u/a.csv /proj/keep/\n") == []


def test_a_projects_own_files_copied_across_are_no_data_and_a_run_folder_no_output():
    # documents, licences, job scripts, build settings, package lists, ssh keys: not data
    for source in (
        "/home/u/proj/README.md",
        "/home/u/proj/requirements.txt",
        "/home/u/proj/job.slurm",
        "/home/u/proj/Makefile.inc",
        "/home/u/proj/license.lic",
        "/home/u/proj/LICENSE.txt",
        "$HOME/.ssh/id_rsa.pub",
    ):
        assert found(f"cp {source} /scratch/u/run/\npython x.py\n", shared_disk=True) == []
    # a data file copied into the folder the job then works in is read, the copy staged there
    text = "cp /home/u/proj/data.h5 /scratch/u/run/data.h5\ncd /scratch/u/run\npython x.py\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/home/u/proj/data.h5")]


def test_a_data_file_broadcast_to_the_nodes_is_read_and_a_program_is_not():
    text = "sbcast -f hosts.txt /tmp/hosts.txt\nsbcast ./a.out /tmp/a.out\nsrun /tmp/a.out\n"
    assert found(text, shared_disk=True) == [("data.inputs", "hosts.txt")]


def test_the_submit_folders_data_copied_to_scratch_or_the_node_is_read():
    text = (
        "cp -r data/ /scratch-shared/u/\ncp dataloader.py /scratch-shared/u/\n"
        "python /scratch-shared/u/dataloader.py /scratch-shared/u/\n"
    )
    assert found(text, shared_disk=True) == [("data.inputs", "data/")]
    assert found("cp -r ./datasets $TMPDIR/\npython fit.py\n") == [("data.inputs", "./datasets")]


def test_a_gdc_client_download_reads_its_manifest_and_makes_its_folder():
    text = (
        "raw=/scratch/u/raw/\n"
        "gdc-client download -d ${raw}seq/ -m ${raw}manifest.tsv -t ${raw}token.txt --debug\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/scratch/u/raw/manifest.tsv"),
        ("output.artifacts", "/scratch/u/raw/seq/"),
        ("work.credentials", "/scratch/u/raw/token.txt"),
    ]


def test_a_folders_contents_copied_to_node_disk_are_the_folder_read():
    text = "cp -r $LAB/weights/* $SLURM_TMPDIR\npython fit.py --models $SLURM_TMPDIR\n"
    assert ("data.inputs", "$LAB/weights") in found(text, shared_disk=True)
    assert ("data.inputs", "$LAB/weights/*") not in found(text, shared_disk=True)


def test_a_folder_copied_to_node_disk_and_run_from_there_is_the_code():
    text = (
        "#!/bin/bash\n#SBATCH --gres=gpu:1\n"
        "tar -xf $LAB/data/scans.tar.gz -C $SLURM_TMPDIR\n"
        "rsync -a $LAB/seg-experiments $SLURM_TMPDIR\n"
        "pip install --no-index -e $SLURM_TMPDIR/seg-experiments\n"
        "cd $SLURM_TMPDIR\n"
        "python seg-experiments/src/train.py data_dir=$SLURM_TMPDIR\n"
    )
    data = _imported(text)
    assert data["work"]["code"] == ["$LAB/seg-experiments"]
    assert [i["location"] for i in data["data"]["inputs"]] == ["$LAB/data/scans.tar.gz"]
    # A folder of data copied the same way stays data: nothing runs from it.
    plain = text.replace("seg-experiments/src/train.py", "train.py").replace(
        "pip install --no-index -e $SLURM_TMPDIR/seg-experiments\n", ""
    )
    assert "$LAB/seg-experiments" in [i["location"] for i in _imported(plain)["data"]["inputs"]]


def test_a_workspace_copy_bound_as_the_containers_code_is_named_by_its_source():
    text = (
        "#!/bin/bash\n#SBATCH --gpus=1\n"
        'ROOT="$HOME/proj"\nDATA_PATH="$HOME/proj_data"\nWS="/tmp/proj_${SLURM_JOB_ID}"\n'
        'cp -r "$ROOT" "$WS"\n'
        'cd "$WS" || { echo "no workspace"; exit 1; }\n'
        'singularity exec -B "$WS":/workspace -B "$DATA_PATH":/workspace/data --nv ~/img.sif \\\n'
        '    bash -c "cd /workspace && python3 src/train.py"\n'
        'cp -r logs "$HOME/keep/${SLURM_JOB_ID}/"\n'
    )
    data = _imported(text)
    assert data["work"]["code"] == ["$HOME/proj"]
    # the data mount is the input the variable names, not also a mount of unknown use
    assert [i["location"] for i in data["data"]["inputs"]] == ["$HOME/proj_data"]
    assert "unclassified" not in data["data"]
    # `cd "$WS" || { …; }` changes into the workspace: its logs copied out are kept
    assert [a["destination"] for a in data["output"]["artifacts"]] == [
        "$HOME/keep/${SLURM_JOB_ID}/"
    ]


def test_a_batch_scripts_dotenv_and_token_files_are_its_credentials():
    head = "#!/bin/bash\n#SBATCH --gpus=1\n"
    sourced = head + 'set -a\nsource "$HOME/proj/.env"\nset +a\npython train.py\n'
    assert _imported(sourced)["work"]["credentials"] == ["$HOME/proj/.env"]
    exported = head + "export $(cat .env | grep WANDB_API_KEY | xargs)\npython train.py\n"
    assert _imported(exported)["work"]["credentials"] == [".env"]
    token = head + 'F="$HOME/.cache/huggingface/token"\nexport HF_TOKEN=$(cat "$F")\npython t.py\n'
    assert _imported(token)["work"]["credentials"] == ["$HOME/.cache/huggingface/token"]
    # a key written into the script, by the variable's name (its value is never kept)
    for line in ('export WANDB_API_KEY="cc08a1"', "HF_TOKEN=hf_abc123", "export GITHUB_PAT='x9'"):
        name = line.split("=")[0].split()[-1]
        data = _imported(head + f"{line}\npython train.py\n")
        assert data["work"]["credentials"] == [name], line
        assert "cc08a1" not in repr(data["work"]["credentials"])
    # a key read from a file is named by the file (above), not by the variable
    assert _imported(head + "export HF_TOKEN=$(cat t)\npython t.py\n")["work"]["credentials"] == [
        "t"
    ]
    # a bare `key=…`, a variable's value, a path, a setting that is no key
    for line in (
        "key=abc",
        "export WANDB_API_KEY=$KEY",
        "HF_TOKEN_PATH=/home/u/.token",
        "TOKENIZERS_PARALLELISM=false",
        "MAX_TOKENS=512",
        "MAX_TOKEN=512",
        "USE_AUTH_TOKEN=true",
        "NUM_KEY_VALUE_HEADS=8",
        "HF_TOKEN_PATH=token.txt",
        "PASSWORD_FILE=pw.txt",
        "HF_TOKEN_DIR=cache/tokens",
    ):
        assert "credentials" not in _imported(head + f"{line}\npython train.py\n").get("work", {})
    # AWS's secret keys hold `/` and `+`: a key all the same
    aws = "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLE+KEY\n"
    assert _imported(head + aws + "python t.py\n")["work"]["credentials"] == [
        "AWS_SECRET_ACCESS_KEY"
    ]
    # a template, a virtual environment and a file read into a variable that holds no key
    for line in ("source .env.example", "source .venv/bin/activate", 'NAMES=$(cat "$F")'):
        assert "credentials" not in _imported(head + f"{line}\npython train.py\n").get("work", {})


def test_inputs_known_from_variables_take_the_place_where_the_command_uses_them():
    text = (
        "#!/bin/bash\n#SBATCH --gres=gpu:1\n"
        "export BASE_MODEL=northwind/tiny-1b\nexport DATA_DIR=./data/puzzles\n"
        "python3 -m rl.main_ppo data.train_files=$DATA_DIR/train.parquet \\\n"
        "  data.val_files=$DATA_DIR/test.parquet actor.model.path=$BASE_MODEL\n"
    )
    # the files under DATA_DIR are what is read, not the folder besides
    assert [i["location"] for i in _imported(text)["data"]["inputs"]] == [
        "./data/puzzles/train.parquet",
        "./data/puzzles/test.parquet",
        "hf://northwind/tiny-1b",
    ]


def test_a_datapath_option_is_the_data_the_program_reads():
    text = "python prep.py --dataset ogbn-products --datapath /proj/raw --output /proj/graph\n"
    assert ("data.inputs", "/proj/raw") in found(text, shared_disk=True)


def test_torchtitans_dump_folder_is_where_it_keeps_its_checkpoints():
    text = "torchrun -m torchtitan.train --job.config_file a.toml --job.dump_folder /runs/t1\n"
    assert found(text) == [("request.checkpoint_location", "/runs/t1")]


def test_an_evaluation_is_told_by_its_programs_name_and_a_servers_data_dir_is_its_own():
    # `retrieval` holds "eval" but evaluates nothing; a settings file among the arguments
    # (`configs/eval_base.py`) does not make the program an evaluation.
    for text in (
        "python run_retrieval.py --checkpoint_dir /lustre/ckpts --output_dir /lustre/out\n",
        "python main.py --cfg configs/eval_base.py --checkpoint_dir /lustre/ckpts\n",
    ):
        assert ("request.checkpoint_location", "/lustre/ckpts") in found(text)
    assert found("python eval_model.py --checkpoint_dir /lustre/ckpts\n") == [
        ("data.inputs", "/lustre/ckpts")
    ]
    # --data-dir beside --output-dir is read, unless the program serves (its own store)
    text = "python -m mlc_llm.serve --data-dir /lustre/cache --output-dir /lustre/out\n"
    assert ("data.inputs", "/lustre/cache") not in found(text)
    text = "python convert.py --data-dir /lustre/raw --output-dir /lustre/out\n"
    assert ("data.inputs", "/lustre/raw") in found(text)
    # a settings file given as --load_path is no checkpoint
    text = "python infer.py --load_path /lustre/config.yaml --output_dir /lustre/out\n"
    assert found(text) == [("output.artifacts", "/lustre/out")]


def test_a_bids_app_reads_its_dataset_and_writes_its_derivatives():
    # the standard's `APP BIDS_DIR OUTPUT_DIR participant|group`, an option between them and
    # the level skipped with its value (`-w /scratch/work`)
    text = "fmriprep /lab/bids/ /lab/derivs/ -w /scratch/work participant --participant-label 01\n"
    assert found(text) == [("data.inputs", "/lab/bids/"), ("output.artifacts", "/lab/derivs/")]
    # through Apptainer: `-u` (--userns) takes no value, and the folders inside the container
    # are the host's mounted there; the template cache mount stays undirected
    text = (
        "singularity run -u -B /scratch/tf:/opt/tf -B /lab/ds:/ds --cleanenv /img/fmriprep.sif "
        "/ds /ds/derivatives participant -w /work\n"
    )
    got = found(text)
    assert ("data.inputs", "/lab/ds") in got
    assert ("output.artifacts", "/lab/ds/derivatives") in got
    assert ("work.image", "/img/fmriprep.sif") in got
    assert ("data.unclassified", "/opt/tf -> /scratch/tf") in got
    # `participant` that is no level after two folders says nothing
    assert found("python group.py participant\n") == []
    assert found("mriqc bids out group\n") == []  # (names, not paths)
    # a switch before the folders (`--low-mem`) takes no value
    text = "fmriprep --low-mem /lab/bids /lab/out participant\n"
    assert found(text) == [("data.inputs", "/lab/bids"), ("output.artifacts", "/lab/out")]
    # two paths before `group` in a program that is no BIDS app, nor an image of one
    assert found("python plot.py /proj/results/scores.csv /proj/figs/ group\n") == []
    # derivatives on the node's own disk are not what the job leaves; their copy out is
    text = (
        "fmriprep /lab/bids $SLURM_TMPDIR/out participant -w $SLURM_TMPDIR/work\n"
        "rsync -a $SLURM_TMPDIR/out/ /lab/derivatives/\n"
    )
    assert ("output.artifacts", "$SLURM_TMPDIR/out") not in found(text)
    assert ("data.inputs", "/lab/bids") in found(text)


def test_apptainers_w_is_writable_not_a_working_folder():
    text = "apptainer exec -B /scratch/wf:/workflow /img/tool.sif tool --in /x -w /workflow\n"
    assert ("work.code", "/scratch/wf") not in found(text)
    # Docker's -w is where the container starts: a mount there holds the code
    text = "docker run -v /home/me/repo:/repo -w /repo img:1 python train.py\n"
    assert ("work.code", "/home/me/repo") in found(text)


def test_slides_handed_over_beside_an_output_path_are_read():
    text = "srun python tiles.py --slides_path /scratch/p/wsi/ --output_path /scratch/p/tiles/\n"
    assert found(text) == [
        ("data.inputs", "/scratch/p/wsi/"),
        ("output.artifacts", "/scratch/p/tiles/"),
    ]


def test_a_program_asked_only_for_its_help_reads_nothing():
    text = "#!/bin/sh\n#SBATCH -c 4\ncd ${SLURM_SUBMIT_DIR}\nnnUNet_train -h\n"
    assert _imported(text)["data"] == {"no_inputs": True}
    for runs in ("nnUNet_train 2d Trainer Task500 0", "tool --help input.txt"):
        assert "no_inputs" not in _imported(f"#!/bin/sh\n#SBATCH -c 4\n{runs}\n").get("data", {})


# --- classic NLP and machine translation (public set seen-az) --------------------------------


def test_models_the_hub_serves_without_an_organisation_are_read_by_name():
    assert found("python -m exp.ner --model_name bert-base-cased --model_type bert\n") == [
        ("data.inputs", "hf://bert-base-cased")
    ]
    assert found("python t.py --model t5-small\n") == [("data.inputs", "hf://t5-small")]
    # (any other bare word is as often a run's label or a setting)
    assert found("python t.py --model_name mymodel\n") == []
    # (second review) beside `--model_args pretrained=…` the bare name is the model's class;
    # `ctrl` is as often a setting as Salesforce's old model
    text = "python main.py --model gpt2 --model_args pretrained=EleutherAI/gpt-j-6B --tasks x\n"
    assert found(text) == [("data.inputs", "hf://EleutherAI/gpt-j-6B")]
    assert found("python analyze.py --model ctrl --subject sub-01\n") == []


def test_a_tokenizer_trainers_model_prefix_is_what_it_writes():
    assert found("spm_train --input=${1} --model_prefix=${2} --vocab_size=30000\n") == [
        ("data.inputs", "${1}"),
        ("output.artifacts", "${2}"),
    ]
    text = "python train_spm.py --input /c/wiki.jsonl --model_prefix tok-wiki --vocab_size 8\n"
    assert found(text) == [("data.inputs", "/c/wiki.jsonl"), ("output.artifacts", "tok-wiki")]


def test_a_trainer_told_to_keep_no_checkpoints_writes_its_output_dir():
    text = "python run_seq2seq.py --train_file $2 --output_dir $4 --no_save --save_steps 900000\n"
    assert found(text) == [("data.inputs", "$2"), ("output.artifacts", "$4")]
    assert found("python run.py --output_dir /o/x --save_steps 500\n") == [
        ("request.checkpoint_location", "/o/x")
    ]
    # (second review) fairseq's --no-save: its --save-dir holds no checkpoints
    text = "fairseq-train data-bin/wmt16 --no-save --save-dir ckpt --save-interval 1\n"
    assert found(text) == [("data.inputs", "data-bin/wmt16")]


def test_fairseq_tools_read_the_data_folder_given_first():
    text = "fairseq-generate exp/data-bin/x.fr-en --path exp/ckpt/best.pt --beam 5\n"
    assert found(text) == [
        ("data.inputs", "exp/data-bin/x.fr-en"),
        ("data.inputs", "exp/ckpt/best.pt"),
    ]
    text = "D=/s/gec\npython fairseq_cli/train.py $D/data-bin/j --save-dir ckpt/t\n"
    assert found(text) == [
        ("data.inputs", "/s/gec/data-bin/j"),
        ("request.checkpoint_location", "ckpt/t"),
    ]
    # (an option first is no data folder)
    assert found("fairseq-hydra-train --config-dir c --config-name n\n") == []


def test_opennmt_translator_reads_its_model_and_source_text():
    text = "python translate.py -model ../m/en.pt -src ../d/dev.et -output ../d/hyp.en -gpu 0\n"
    assert found(text) == [
        ("data.inputs", "../m/en.pt"),
        ("data.inputs", "../d/dev.et"),
        ("output.artifacts", "../d/hyp.en"),
    ]
    # (another program's `-model` is not OpenNMT's)
    assert found("python translate.py --text hello\n") == []


def test_a_translation_corpus_source_side_is_read_not_taken_for_code():
    text = "python nmt.py --src data/split/train.en --tgt data/split/train.fr\n"
    assert found(text) == [
        ("data.inputs", "data/split/train.en"),
        ("data.inputs", "data/split/train.fr"),
    ]
    assert found("python x.py --src src/ --out /o\n") == []


def test_a_root_of_inputs_beside_a_root_of_outputs_is_read_for_each_turn_of_a_loop():
    text = (
        'IN=/s/old\nOUT=/s/old_out\n\n# the new runs\nIN="/s/new"\nOUT="/s/new_out"\n'
        'SETS=(\n  # "skipped"\n  "a"\n  "b"\n  "c"\n)\n'
        'for S in "${SETS[@]}"; do\n  python score.py --input_root "${IN}/${S}/m" '
        '--output_root "${OUT}/${S}"\ndone\n'
    )
    # (the later settings hold; three outputs side by side are their folder)
    assert found(text) == [
        ("data.inputs", "/s/new/a/m"),
        ("output.artifacts", "/s/new_out"),
        ("data.inputs", "/s/new/b/m"),
        ("data.inputs", "/s/new/c/m"),
    ]


def test_a_variable_set_again_before_any_use_keeps_the_later_value():
    from jobs.jobformat.envs import script_variables

    assert script_variables("B=/a/x\n\n# now\nB=/a/y\n").values["B"] == "/a/y"
    # (used between, or set again in a branch: the run decides)
    assert "B" in script_variables("B=/a/x\nC=$B/q\nB=/a/y\n").ambiguous
    assert "B" in script_variables('B=/a/x\nif [ -n "$Q" ]; then\n  B=/a/y\nfi\n').ambiguous
    assert "B" in script_variables("B=/a/x\nif true; then\nB=/a/y\nfi\n").ambiguous


def test_printed_results_redirected_into_a_folder_named_for_results_are_an_output():
    # (on a cluster's shared disk, where the file outlives the job)
    assert found("python t.py -n_best 10 > results/test.nbest.out\n", shared_disk=True) == [
        ("output.artifacts", "results/test.nbest.out")
    ]
    # (a log's folder is not one)
    assert found("python t.py > logs/run.out\n", shared_disk=True) == []
    # (second review) a log kept in that folder is still a log: by its name, or a `.out` that
    # takes the errors too
    assert found("python t.py > results/train_${SLURM_JOB_ID}.log 2>&1\n", shared_disk=True) == []
    assert found("python t.py > results/run.err\n", shared_disk=True) == []
    assert found("python t.py > results/run.out 2>&1\n", shared_disk=True) == []


def test_a_dvc_remote_only_printed_for_the_reader_is_not_added():
    text = (
        "dvc pull -r gcs || {\n"
        '  echo "FATAL: pull failed."\n'
        '  echo "And: dvc remote add gcs gs://lake-dvc/cache"\n'
        "  exit 1\n"
        "}\n"
    )
    assert ("data.inputs", "gs://lake-dvc/cache") not in found(text)
    # …the same command run adds it.
    assert ("data.inputs", "gs://lake-dvc/cache") in found(
        "dvc remote add gcs gs://lake-dvc/cache\ndvc pull -r gcs\n"
    )
    # (review) the printed text is text, a `|` in it too; a real pipe after an echo still runs
    printed = 'echo "Configure storage | dvc remote add -d storage s3://team-dvc/store"\ndvc pull\n'
    assert ("data.inputs", "s3://team-dvc/store") not in found(printed)
    piped = 'echo "adding" | dvc remote add -d storage s3://team-dvc/store\ndvc pull\n'
    assert ("data.inputs", "s3://team-dvc/store") in found(piped)


def test_one_file_of_a_hub_repository_is_read_by_its_name():
    text = (
        'python -c "from huggingface_hub import hf_hub_download; '
        "hf_hub_download('northwind/seg-base', 'seg_base.pt')\"\n"
        'python -c "from huggingface_hub import hf_hub_download as d; '
        "d(repo_id='x/y', filename='w.pt'); hf_hub_download(repo_id='northwind/vit', "
        "filename='vit.safetensors')\"\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://northwind/seg-base/seg_base.pt"),
        ("data.inputs", "hf://northwind/vit/vit.safetensors"),
    ]
    # (second review) a dataset's repository, a folder in the repository
    text = (
        'python -c "from huggingface_hub import hf_hub_download as h; h(1); hf_hub_download('
        "repo_id='org/ds', filename='train.parquet', repo_type='dataset')\"\n"
        'python -c "from huggingface_hub import hf_hub_download; hf_hub_download('
        "repo_id='org/model', filename='model.safetensors', subfolder='unet')\"\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://datasets/org/ds/train.parquet"),
        ("data.inputs", "hf://org/model/unet/model.safetensors"),
    ]


def test_only_the_case_arm_of_the_variables_value_runs():
    text = (
        'case "${FAMILY}" in\n'
        "  seg_large|seg_hybrid)\n"
        "    huggingface-cli download northwind/seg-large\n"
        "    ;;\n"
        "  vit)\n"
        "    huggingface-cli download northwind/vit\n"
        "    ;;\n"
        "  *)\n"
        "    huggingface-cli download northwind/default\n"
        "    ;;\n"
        "esac\n"
        "python train.py\n"
    )
    assert found(text, variables={"FAMILY": "vit"}) == [("data.inputs", "hf://northwind/vit")]
    assert found(text, variables={"FAMILY": "unet"}) == [("data.inputs", "hf://northwind/default")]
    # With no value for the variable, every arm may run.
    assert [v for _, v in found(text)] == [
        "hf://northwind/seg-large",
        "hf://northwind/vit",
        "hf://northwind/default",
    ]


def test_a_list_an_earlier_step_wrote_is_not_an_input_when_given_on_stdin():
    text = (
        "WORK=$(mktemp -d)\n"
        "aws s3 ls s3://lake/raw/ > ${WORK}/all_objects.txt\n"
        "TOTAL=$(wc -l < ${WORK}/all_objects.txt)\n"
        "python split.py < manifest.txt\n"
    )
    assert ("data.inputs", "${WORK}/all_objects.txt") not in found(text)
    assert ("data.inputs", "manifest.txt") in found(text)
    # (review) a file the job writes only after it read it was there before
    text = "python infer.py < prompts.txt > out/preds.txt\npython make_prompts.py > prompts.txt\n"
    assert ("data.inputs", "prompts.txt") in found(text)
    text = "python make_prompts.py \\\n  --n 5 > prompts.txt\npython infer.py < prompts.txt\n"
    assert ("data.inputs", "prompts.txt") not in found(text)


def test_uname_reads_nothing():
    assert ("data.no_inputs", True) in found('echo hi\nuname -a\nlscpu | grep "Model name"\n')


def test_deepmd_reads_and_writes_the_models_its_subcommands_name():
    text = (
        "dp train input.json --init-frz-model ../base/graph.pb\n"
        "dp freeze -o graph4.pb\n"
        "dp --pt compress -t input.json -i frozen_model_1.pb -o frozen_model_1_compressed.pb\n"
        "dp test -m graph4.pb -s ../systems/val -n 100\n"  # graph4.pb was written just above
    )
    assert found(text) == [
        ("data.inputs", "../base/graph.pb"),
        ("output.artifacts", "graph4.pb"),
        ("data.inputs", "frozen_model_1.pb"),
        ("output.artifacts", "frozen_model_1_compressed.pb"),
        ("data.inputs", "../systems/val"),
    ]
    # The training input (settings) is no data; a program not DeePMD-kit's is not read so.
    assert found("dp train input.json\nsrun ./dpx compress -i a.pb -o b.pb\n") == []
    # (second review) `dp` is the command's program, past a launcher and settings; not a word
    # on another program's line
    assert found("python main.py --strategy dp test -m /models/best.pt -s /data/sys\n") == []
    assert found("OMP_NUM_THREADS=4 srun -n 4 dp test -m /m/g.pb -s /d/sys\n") == [
        ("data.inputs", "/m/g.pb"),
        ("data.inputs", "/d/sys"),
    ]
    # the checkpoint a training resumes from is read
    assert found("dp train input.json --restart /ckpt/model.ckpt\n") == [
        ("data.inputs", "/ckpt/model.ckpt")
    ]


def test_a_trained_model_linked_in_under_the_name_the_program_loads_is_read():
    text = "ln -s ../train_energy_model/frozen_model.pb frozen_model.pb\nlmp -in in.lammps\n"
    assert found(text) == [
        ("data.inputs", "../train_energy_model/frozen_model.pb"),
        ("data.inputs", "in.lammps"),
    ]
    # A link to a script, a log, or a model the job wrote itself is not.
    assert found("ln -s ../run.sh run.sh\nln -sf out.log latest.log\n") == []
    assert found("dp freeze -o g.pb\nln -s g.pb graph.pb\n") == [("output.artifacts", "g.pb")]
    # (second review) nor a file inside a folder the job checkpoints into or wrote
    text = (
        "python train.py --output_dir /scratch/me/run1 --save_steps 100\n"
        "ln -sf /scratch/me/run1/checkpoint-100/model.safetensors /scratch/me/latest.safetensors\n"
    )
    assert ("data.inputs", "/scratch/me/run1/checkpoint-100/model.safetensors") not in found(text)
    assert found("ln -sf /scratch/me/run1/checkpoint-100/model.safetensors m.safetensors\n") == [
        ("data.inputs", "/scratch/me/run1/checkpoint-100/model.safetensors")
    ]


def test_a_folder_copied_into_the_jobs_own_folder_holds_what_the_run_reads_there():
    # (seen-bb) The example copied in is read where it came from; its macro, read in the copy,
    # and the build folder made inside the job's own folder (never copied back) are not more.
    text = (
        "export WORK_DIR=/data/$USER/geant4_$SLURM_JOB_ID\n"
        "export INPUT_DIR=$PWD/B5\n"
        "mkdir -p $WORK_DIR\n"
        "cp -r $INPUT_DIR $WORK_DIR\n"
        "cd $WORK_DIR\n"
        "mkdir build\n"
        "cd build\n"
        "cmake ../B5\n"
        "make\n"
        "./exampleB5 exampleB5.in > exampleB5.out\n"
    )
    assert found(text) == [("data.inputs", "$PWD/B5")]
    # Nothing copied in: the macro is the run's own input.
    assert found("cd /lab/g4\n./exampleB1 run1.mac > run1.out\n") == [("data.inputs", "run1.mac")]


def test_simulation_parameter_files_are_read():
    # (seen-bb) GADGET's and AREPO's parameter files, a REST configuration, a namelist; the
    # launcher's own options and their values (`-np $SLURM_NPROCS`) are not the program.
    text = (
        "mpiexec -np $SLURM_NPROCS ./Gadget4 param.txt\n"
        "time -p mpirun ./Arepo run/params.txt\n"
        "restG4 U238.rml\n"
        "srun ./ramses3d cosmo.nml\n"
    )
    assert found(text) == [
        ("data.inputs", "param.txt"),
        ("data.inputs", "run/params.txt"),
        ("data.inputs", "U238.rml"),
        ("data.inputs", "cosmo.nml"),
    ]
    # A tool handling the file, or a Python program's argument, is not a simulation reading it.
    for text in ("cp param.txt run/\n", "python plot.py param.txt\n", "sed -i s/a/b/ x.param\n"):
        assert not [p for p in found(text) if p[0] == "data.inputs"], text


def test_wsclean_reads_its_measurement_sets_and_writes_its_images():
    # (seen-bb) The sets are its bare arguments at the end; -name is the images' prefix.
    text = (
        "obsid=$1\n"
        "wsclean -name wsclean-final -mgain 0.85 -size 8000 8000 -niter 1000 ${obsid}.ms\n"
    )
    assert found(text) == [
        ("data.inputs", "${obsid}.ms"),
        ("output.artifacts", "wsclean-final"),
    ]
    text = (
        "MSIN=$1\n"
        "singularity exec -B /project,/home wsclean.sif wsclean -pol i -name deep "
        "-j ${SLURM_CPUS_PER_TASK} ${MSIN}\n"
        "singularity exec img.sif wsclean -name facet -size 100 100 sub*.ms\n"
    )
    assert [p for p in found(text) if p[0] != "work.image"] == [
        ("data.inputs", "$MSIN"),
        ("output.artifacts", "deep"),
        ("data.inputs", "sub*.ms"),
        ("output.artifacts", "facet"),
    ]
    # A thread count last (an option's value) is not a set.
    assert not [p for p in found("wsclean -name x -j $N\n") if p[0] == "data.inputs"]


def test_data_handed_first_to_a_program_an_mpi_launcher_starts_is_read():
    # (seen-bb) parallel_bilby's analysis step reads the data dump its generation step wrote.
    text = "mpirun parallel_bilby_analysis out/data/run_data_dump.pickle --nact 20 --outdir out/r\n"
    assert ("data.inputs", "out/data/run_data_dump.pickle") in found(text)
    # Not one an earlier step of the job wrote.
    text = "python prep.py > feats.pkl\nmpirun fit feats.pkl\n"
    assert ("data.inputs", "feats.pkl") not in found(text, shared_disk=True)
    # (second review) past the launcher's options that take a value, to the program
    for options in ("--bind-to core -np 4", "-x LD_LIBRARY_PATH -np 4", "--hostfile h -np 4",
                    "--mca btl tcp -np 4"):  # fmt: skip
        text = f"mpirun {options} parallel_bilby_analysis run/data_dump.pickle\n"
        assert ("data.inputs", "run/data_dump.pickle") in found(text), options


def test_intel_profilers_write_their_results_folder():
    # (seen-bb) Advisor's --project-dir, VTune's -result-dir / -r: where the results go.
    text = (
        "advisor --collect=roofline -enable-cache-simulation --project-dir=./nbody-advisor "
        "-- ./app-ICC\n"
        "vtune -collect hotspots -result-dir r001hs -- ./app -r 3\n"
    )
    assert found(text) == [
        ("output.artifacts", "./nbody-advisor"),
        ("output.artifacts", "r001hs"),
    ]
    # (second review) a report step reads the folder: the job's own after a collection, an
    # input alone
    text = (
        "vtune -collect hotspots -r r001 -- ./app\n"
        "vtune -report summary -r r001\n"
        "advisor --report=roofline --project-dir=/scratch/adv\n"
    )
    assert found(text) == [("output.artifacts", "r001"), ("data.inputs", "/scratch/adv")]


def test_cdo_reads_its_input_files_and_grid_and_writes_the_last_file():
    text = (
        'grid="/archive/grids/c192.nc"\n'
        "cdo -O -L -f nc4 -remapcon,${grid} /archive/obs/pr_2001.nc /archive/out/pr_c192.nc\n"
        "cdo mergetime /data/a.nc /data/b.nc merged.nc\n"
        "cdo -mulc,86400 -remapbil,r360x180 merged.nc /data/pr_mm.nc\n"  # merged.nc: written above
        "cdo griddes /data/ref.nc > grid.txt\n"  # griddes prints: it only reads
        "cdo -sellonlatbox,-10,40.5,30,60 /data/eu.nc /data/eu_box.nc\n"  # numbers are no files
    )
    assert found(text) == [
        ("data.inputs", "/archive/grids/c192.nc"),
        ("data.inputs", "/archive/obs/pr_2001.nc"),
        ("output.artifacts", "/archive/out/pr_c192.nc"),
        ("data.inputs", "/data/a.nc"),
        ("data.inputs", "/data/b.nc"),
        ("output.artifacts", "merged.nc"),
        ("output.artifacts", "/data/pr_mm.nc"),
        ("data.inputs", "/data/ref.nc"),
        ("data.inputs", "/data/eu.nc"),
        ("output.artifacts", "/data/eu_box.nc"),
    ]


def test_cdo_operator_parameters_are_values_unless_they_look_like_files():
    # (second review) year and month ranges are values; a printing operator reads its one file;
    # `trend` writes two files.
    text = (
        "cdo -O -selyear,1981/2010 -selmon,6/8 /data/era5/t2m.nc /scratch/jja.nc\n"
        "cdo -remapcon,/grids/target /data/in.nc /scratch/r.nc\n"
        "cdo nvar /data/v.nc\n"
        "cdo filedes /data/f.nc\n"
        "cdo trend /data/t2m.nc /scratch/a.nc /scratch/b.nc\n"
    )
    assert found(text) == [
        ("data.inputs", "/data/era5/t2m.nc"),
        ("output.artifacts", "/scratch/jja.nc"),
        ("data.inputs", "/grids/target"),
        ("data.inputs", "/data/in.nc"),
        ("output.artifacts", "/scratch/r.nc"),
        ("data.inputs", "/data/v.nc"),
        ("data.inputs", "/data/f.nc"),
        ("data.inputs", "/data/t2m.nc"),
        ("output.artifacts", "/scratch/a.nc"),
        ("output.artifacts", "/scratch/b.nc"),
    ]


def test_a_path_set_under_an_output_section_is_written():
    text = (
        "srun anemoi-inference run config.yaml date=2023-01-01T00 "
        "output.extract_lam.output.netcdf=netcdf/test_$SLURM_ARRAY_TASK_ID.nc\n"
        "python run.py output.format=netcdf output.name=run.1\n"  # no place: nothing
    )
    assert found(text) == [("output.artifacts", "netcdf/test_$SLURM_ARRAY_TASK_ID.nc")]
    # (second review) what the output is made from, set under it, is read
    text = "srun anemoi-inference run c.yaml output.grib.template=/proj/templates/t.grib\n"
    assert ("data.inputs", "/proj/templates/t.grib") in found(text)
    assert ("output.artifacts", "/proj/templates/t.grib") not in found(text)


def test_a_build_for_one_platform_is_software_not_data():
    # (seen-bg: the AWS CLI fetched as a zip in setup)
    text = (
        'curl "https://awscli.example.com/awscli-exe-linux-x86_64.zip" -o "awscliv2.zip"\n'
        "wget https://tools.example.org/v2/tool_linux_amd64.tar.gz\n"
        "wget https://data.example.org/tides/linux-logs.csv\n"
    )
    assert found(text) == [("data.inputs", "https://data.example.org/tides/linux-logs.csv")]
    # (review) a data file by its kind is data, whatever platform its name says it came from
    text = "wget https://data.example.org/sim/outputs_linux_x64.h5\n"
    assert found(text) == [("data.inputs", "https://data.example.org/sim/outputs_linux_x64.h5")]


def test_a_tools_result_file_and_one_named_by_the_tools_own_fields():
    # (seen-bg: `clip_benchmark eval --output "$HOME/res/{dataset}_{task}.json"`: the folder)
    assert found('uv run bench eval --task x --output "$HOME/res/{dataset}_{task}.json"\n') == [
        ("output.artifacts", "$HOME/res")
    ]
    assert found("bench eval --task x --output /results/scores.json\n") == [
        ("output.artifacts", "/results/scores.json")
    ]
    # (a folder ending in `/` keeps it; a curl download's `--output` is not a result)
    assert found("python run.py --output /scratch/bench/\n") == [
        ("output.artifacts", "/scratch/bench/")
    ]
    assert not [p for p in found("curl https://x.org/a --output /tmp/a.json\n") if "output" in p[0]]


def test_the_site_a_crawler_is_given_is_what_it_reads():
    # (seen-bg: `python crawl/crawl_site.py --url "$TARGET_URL"`)
    text = 'SITE=https://docs.tidewater.org\npython crawl/crawl_site.py --url "$SITE"\n'
    assert found(text) == [("data.inputs", "https://docs.tidewater.org")]
    assert found("python scrape.py --start-urls=https://tidewater.org/news\n") == [
        ("data.inputs", "https://tidewater.org/news")
    ]
    # a client's server and the machine itself are not data
    assert found("python client.py --url https://api.tidewater.org/v1\n") == []
    assert found("python crawl.py --url http://localhost:8080\n") == []
    # (review) Spider, the text-to-SQL benchmark, asks a model's API; a crawler's API or
    # metrics endpoint and a host left to run time are no site it reads
    assert found("python spider_eval.py --url https://data.tidewater.org/q\n") == []
    assert found("python crawl_site.py --url https://api.tidewater.org/pages\n") == []
    assert found("python scrape.py --url http://$HEAD_IP:8080/metrics\n") == []
    assert found("python scrape.py --url https://tidewater.org:8443/metrics\n") == []


def test_structural_biology_tools_by_the_options_naming_their_files():
    # Docking programs: receptor and ligands read, poses written (gnina's short options too).
    assert found("gnina --no_gpu -r protein.pdb -l library.sdf -o output.sdf --config g.dpf\n") == [
        ("data.inputs", "protein.pdb"),
        ("data.inputs", "library.sdf"),
        ("output.artifacts", "output.sdf"),
    ]
    assert found("vina --receptor rec.pdbqt --ligand lig.pdbqt --out poses.pdbqt\n") == [
        ("data.inputs", "rec.pdbqt"),
        ("data.inputs", "lig.pdbqt"),
        ("output.artifacts", "poses.pdbqt"),
    ]
    # MGLTools: the molecule read, the prepared file written; a template's `{0}` is no file.
    assert found("prepare_gpf4.py -l {0} -r protein.pdbqt -y -o protein.gpf\n") == [
        ("data.inputs", "protein.pdbqt"),
        ("output.artifacts", "protein.gpf"),
    ]
    # MotionCor2 by a build's name: movies and gain read, micrographs written.
    assert found(
        "MotionCor2_1.4.4_Cuda112 -InEer EER/ -FmIntFile f.txt -OutMrc out/ -Gain gain.mrc -Gpu 0\n"
    ) == [
        ("data.inputs", "EER/"),
        ("data.inputs", "gain.mrc"),
        ("output.artifacts", "out/"),
    ]
    # A Rosetta application by a build's name: the structure read; a placeholder list is not.
    assert found("/opt/bin/rosetta_scripts.default.linuxgccrelease @flags -s x.dock.pdb\n") == [
        ("data.inputs", "x.dock.pdb")
    ]
    assert found("input=XYZ\nsrun rosetta_scripts.mpi.linuxgccrelease -l $input\n") == []
    # CryoDRGN: the particles, CTF and poses read, the run's folder written; the weights it
    # continues from under that folder are the run's own, and its printout is a log.
    assert found(
        "cryodrgn train_vae p.mrcs --ctf ctf.pkl --poses poses.pkl --zlr 0.01 "
        "--load out/b0/weights.9.pkl --loadz out/b0/z.9.pkl -o out/b0/ > out/b0.log\n"
    ) == [
        ("data.inputs", "p.mrcs"),
        ("data.inputs", "ctf.pkl"),
        ("data.inputs", "poses.pkl"),
        ("output.artifacts", "out/b0/"),
    ]


def test_docking_options_and_results_and_an_mdrun_checkpoint_file():
    # Options named for the molecules a docking script is given, and its results.
    assert found("python3 dock.py --pdb_ids 'receptors.csv' --ligands 'lib.sdf'\n") == [
        ("data.inputs", "receptors.csv"),
        ("data.inputs", "lib.sdf"),
    ]
    assert found("python docking_multi.py --pdbqt-dir /s/pdbqt --save-dir /s/docked\n") == [
        ("data.inputs", "/s/pdbqt"),
        ("output.artifacts", "/s/docked"),
    ]
    # mdrun saving its checkpoint to -cpo (no -cpi: it does not continue from it).
    assert ("request.checkpoint_location", "cpt/state") in found(
        "gmx mdrun -deffnm prod -cpnum -cpt 30 -cpo cpt/state -nb gpu\n"
    )
    assert ("request.preemptible", True) not in found("gmx mdrun -deffnm prod -cpo cpt/state\n")


def test_predictor_bare_names_required_values_and_an_output_prefix():
    # colabfold_batch IN OUT: bare names are its places; an option's number is not.
    assert found("srun --gres=gpu:1 colabfold_batch 10U.fasta 10U --save-recycles\n") == [
        ("data.inputs", "10U.fasta"),
        ("output.artifacts", "10U"),
    ]
    assert ("output.artifacts", "result_quick") in found(
        "colabfold_batch $1 result_quick --recycle-early-stop-tolerance 0.7 --num-recycle 40\n"
    )
    # `${1:?usage}` is the script's argument; `${OUT:?…}` the environment's value.
    text = (
        'PDB="${1:?Usage: $0 <pdb>}"\n'
        'OUT="${RUN_DIR:?must be set}"\n'
        'python scripts/run_inference.py inference.input_pdb="${PDB}" '
        'inference.output_prefix="${OUT}/design_${TASK}"\n'
    )
    assert found(text) == [
        ("data.inputs", "${PDB}"),
        ("output.artifacts", "$RUN_DIR"),
    ]


def test_data_options_named_for_data_take_a_relative_folder():
    # (seen-bj) OpenVLA's `--data_root_dir data/1.0.0`: a relative folder with a `/` is read.
    text = "torchrun --nproc_per_node=8 vla-scripts/train.py --data_root_dir data/1.0.0\n"
    assert found(text) == [("data.inputs", "data/1.0.0")]
    # A bare word is still no place (as often a name or a setting).
    assert found("python train.py --data_root_dir imagenet\n") == []


def test_url_lists_of_downloaders_and_pretrained_backbones_are_read():
    # (seen-bj) video2dataset's and img2dataset's `--url_list`; a trainer's `--backbone org/name`.
    text = (
        'video2dataset --url_list="third_party/v2d/assets/urls.txt" --output_folder="data/v2d"\n'
        "img2dataset --url_list /data/cc3m/urls.parquet --output_folder /data/cc3m/shards\n"
        "python -m torch.distributed.launch src/vqacl.py --backbone 'Salesforce/blip2-opt-2.7b'\n"
        "python train.py --backbone resnet50\n"
    )
    assert found(text) == [
        ("data.inputs", "third_party/v2d/assets/urls.txt"),
        ("output.artifacts", "data/v2d"),
        ("data.inputs", "/data/cc3m/urls.parquet"),
        ("output.artifacts", "/data/cc3m/shards"),
        ("data.inputs", "hf://Salesforce/blip2-opt-2.7b"),
    ]


def test_experiment_and_run_root_folders_are_written():
    # (seen-bj) `--expdir`, `--exp_dir`, OpenVLA's `--run_root_dir`.
    text = (
        "MODEL=$1\n"
        "python main.py --expdir ${PWD}/experiments/${MODEL}/seed_0\n"
        "python train.py --exp_dir /scratch/runs/a\n"
        "torchrun train.py --run_root_dir results/vla\n"
    )
    assert found(text) == [
        ("output.artifacts", "${PWD}/experiments/${MODEL}/seed_0"),
        ("output.artifacts", "/scratch/runs/a"),
        ("output.artifacts", "results/vla"),
    ]


def test_a_wandb_login_key_is_a_credential():
    # (seen-bj) `wandb login KEY`: written out, it is W&B's key; a variable names itself.
    key = "0123456789abcdef0123456789abcdef01234567"
    assert found(f"wandb login {key} # mine\n") == [("work.credentials", "WANDB_API_KEY")]
    assert found("wandb login $WANDB_KEY\n") == [("work.credentials", "WANDB_KEY")]
    # With no key it uses the one the node has.
    assert found("wandb login\nwandb login --relogin\n") == []


def test_grouped_trainer_options_saving_on_a_schedule_name_the_checkpoints():
    # (seen-bj) VeOmni's `--train.output_dir P --train.save_steps N`: P holds the checkpoints.
    text = "torchrun t.py --train.save_steps 1000 --train.output_dir results/sft\n"
    assert found(text) == [("request.checkpoint_location", "results/sft")]


def test_a_default_that_is_only_another_variable_is_the_environments_first():
    # (seen-bj) `${WORK:-$PWD}/data`: $WORK wherever the cluster sets it; the default is no
    # value the file gives.
    text = "python t.py --train-data ${WORK:-$PWD}/data/shards/s_{0..9}.tar\n"
    assert found(text) == [("data.inputs", "$WORK/data/shards/s_{0..9}.tar")]
    # A default the file gives, or a variable it sets, is still taken.
    assert found("python t.py --data ${DATA:-/lustre/d}/train\n") == [
        ("data.inputs", "/lustre/d/train")
    ]
    text = "ROOT=/scratch/r\npython t.py --data ${DATA:-$ROOT}/train\n"
    assert found(text) == [("data.inputs", "/scratch/r/train")]


def test_options_ending_in_output_name_what_a_program_writes():
    # (seen-bj) a video converter's `--video_path A --convert_output B`: A read, B written.
    text = (
        "video_path=/scratch/d/B1.mp4\n"
        'python $script --video_path "$video_path" --convert_output /scratch/d/c/B1_c.mp4\n'
    )
    assert found(text) == [
        ("data.inputs", "/scratch/d/B1.mp4"),
        ("output.artifacts", "/scratch/d/c/B1_c.mp4"),
    ]
    # A switch is no place; a media option alone is left unsaid.
    assert found("python x.py --print_output true --video_path /d/v.mp4\n") == []


def test_a_clone_only_setup_runs_a_tool_from_is_not_the_code_of_the_run():
    text = (
        "setup: |\n  git clone https://github.com/acme/convkit.git\n  cd convkit\n"
        "  git checkout 60d51ef\n  pip install .\n"
        "  python tools/convert_weights.py --input_dir ~/w --output_dir ~/hf\n  cd -\n"
        "  git clone https://github.com/acme/trainer.git\n"
        "run: |\n  cd trainer\n  torchrun --nproc_per_node 4 train.py --model ~/hf\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.work.code == ["https://github.com/acme/trainer.git"]
    # …and with the run's program in the workdir, the converter's clone is no code either
    workdir = text.replace("  git clone https://github.com/acme/trainer.git\n", "").replace(
        "run: |\n  cd trainer\n", "workdir: .\nrun: |\n"
    )
    (result,) = jobformat.import_text(workdir.encode(), filename="task.yaml")
    assert result.description.work.code == ["."]
    # (without a run there is no program of the job's own: no clone is its code, as before)
    alone = text.split("run:")[0]
    (result,) = jobformat.import_text(alone.encode(), filename="task.yaml")
    assert "https://github.com/acme/convkit.git@60d51ef" not in (result.description.work.code or [])


def test_a_download_kept_in_a_bucket_and_read_back_is_read_from_its_url():
    text = (
        "resources:\n  accelerators: A100:4\nfile_mounts:\n  /data:\n    name: lake-data\n"
        "    store: gcs\n    mode: MOUNT\nsetup: |\n  if [ ! -f /data/pairs.json ]; then\n"
        "    wget https://raw.githubusercontent.com/acme/sets/main/pairs.json -O /data/pairs.json\n"
        "  fi\nrun: |\n  torchrun --nproc_per_node 4 train.py --data_path /data/pairs.json\n"
    )
    data = sky_description(text)
    # a data file kept in a repository, fetched by its raw URL, is the input; the bucket
    # only keeps the copy (no output)
    assert [i["location"] for i in data["data"]["inputs"]] == [
        "https://raw.githubusercontent.com/acme/sets/main/pairs.json"
    ]
    assert not data.get("output")
    # a script fetched the same way is no data
    script = text.replace("pairs.json -O", "prep.sh -O")
    assert "raw.githubusercontent" not in str(sky_description(script).get("data"))
    # a download job (nothing reads the copy after) makes the bucket's contents: an output
    fetch_only = text.split("run:")[0] + "run: |\n  echo done\n"
    outputs = sky_description(fetch_only)["output"]["artifacts"]
    assert outputs == [{"name": "/data", "destination": "gs://lake-data"}]


def test_a_step_continued_over_lines_that_names_its_source_stages_what_the_run_reads():
    text = (
        "resources:\n  accelerators: A100:8\nsetup: |\n"
        "  python tools/convert.py \\\n    --input_dir /lake/raw-13b \\\n"
        "    --output_dir ~/hf-out || exit 1\n"
        "run: |\n  torchrun --nproc_per_node 8 train.py --model_name_or_path ~/hf-out/m13b\n"
    )
    data = sky_description(text)
    # the converter names what it reads on another line of the same command: that is the
    # input, and its output only the run's local copy
    assert [i["location"] for i in data["data"]["inputs"]] == ["/lake/raw-13b"]
    assert not data.get("output")


def test_a_copy_on_the_node_links_what_is_read_to_its_source_and_moves_results_on():
    text = (
        "resources:\n  accelerators: A100:8\nsetup: |\n"
        "  mkdir -p ~/raw-13b\n  gsutil -m rsync -r /lake/raw/13b/ ~/raw-13b\n"
        "run: |\n  python train.py --model_name_or_path $HOME/raw-13b --data_path /lake/set.json\n"
    )
    # the folder the program reads is a copy the job made: its source is what is read
    inputs = [i["location"] for i in sky_description(text)["data"]["inputs"]]
    assert inputs == ["/lake/raw/13b", "/lake/set.json"]
    # an output on the node's disk that a later step copies on is an intermediate
    onward = (
        "resources:\n  accelerators: A100:8\nsetup: |\n"
        "  python tools/export.py --output_dir ~/hf-out\n  cp -r ~/hf-out/* /lake/models/m1\n"
        "run: |\n  python train.py --data_path /lake/set.json\n"
    )
    data = sky_description(onward)
    outputs = [a.get("destination") for a in data.get("output", {}).get("artifacts", [])]
    assert "~/hf-out" not in outputs
    # a copy of what the job itself wrote is not read from where it came from
    own = onward.replace("--data_path /lake/set.json", "--model /lake/models/m1")
    assert "~/hf-out" not in str(sky_description(own).get("data"))


def test_a_model_env_used_only_in_commands_commented_out_is_not_read():
    text = (
        "resources:\n  accelerators: H100:4\nenvs:\n  REF_MODEL: fjord/base-8b\n"
        "  FT_NAME: tuned\n"
        "# python merge.py --base ${REF_MODEL} --out ~/${FT_NAME}\n"
        "run: |\n  python eval.py --model /root/tuned\n"
    )
    assert "fjord/base-8b" not in str(sky_description(text).get("data"))
    # a program that may find it in its environment still reads it when no comment shows
    # the env's use elsewhere
    plain = text.replace("# python merge.py --base ${REF_MODEL} --out ~/${FT_NAME}\n", "")
    assert "hf://fjord/base-8b" in str(sky_description(plain)["data"])


def test_checkpoints_a_trainer_uploads_to_the_bucket_its_overrides_name_are_kept_there():
    text = (
        "resources:\n  accelerators: H100:1\nenvs:\n  GCS_BUCKET: lake-ckpts\nrun: |\n"
        "  CHECKPOINT_DIR=/tmp/checkpoints\n  mkdir -p $CHECKPOINT_DIR\n"
        "  python train.py training.checkpoint.save_interval=25 output_dir=$CHECKPOINT_DIR \\\n"
        "    gcs.enabled=true gcs.bucket=${GCS_BUCKET}\n"
    )
    assert sky_description(text)["request"]["checkpoint_location"] == "gs://lake-ckpts"
    # an upload turned off keeps them on the node
    off = text.replace("gcs.enabled=true", "gcs.enabled=false")
    assert sky_description(off)["request"]["checkpoint_location"] == "/tmp/checkpoints"


def test_data_prepared_from_a_cloned_repositorys_files_is_read_from_that_repository():
    text = (
        "resources:\n  accelerators: H100:2\nenvs:\n  TASKS_REPO: https://github.com/acme/task-gen.git\n"
        "setup: |\n  git clone $TASKS_REPO $HOME/task-gen\n"
        "  python tools/prepare.py --tasks-dir $HOME/task-gen/tasks --output-dir $HOME/data/tasks\n"
        "run: |\n  DATA_DIR=$HOME/data/tasks\n"
        "  python -m lab.train data.train_data=\"['${DATA_DIR}/train.parquet']\"\n"
    )
    inputs = [i["location"] for i in sky_description(text)["data"]["inputs"]]
    assert inputs == ["https://github.com/acme/task-gen.git"]


def test_a_slurm_job_that_only_builds_or_installs_software_reads_no_data():
    # (seen-bk: `conda env create -f env.yml`, `spack install`, `apptainer build x.sif x.def`, make)
    for text in (
        "module purge\nmodule load Anaconda3/2023.07-2\nconda env create -f env.yml",
        "mkdir -p logs\nconda env create -f environment.yml -p /w/envs/gym -v -y\nexit 0\n",
        "source /modules/spack/share/spack/setup-env.sh\nspack install -y $PKG\n",
        "spack --color=never env activate ~/bathy\nspack --color=never install\n",
        "cd $SLURM_SUBMIT_DIR\napptainer build --sandbox --fakeroot a.sandbox a.def\n",
        "sudo singularity build image.sif image.def\n",
        "module load openmpi\nmake\n",
        "set -e\nmkdir -p log obj bin\nmake -j 4\n",
        "mamba create -n tools -y\nmicromamba install -c conda-forge snakemake\n",
        "eb --robot GROMACS-2023.3-foss-2023a.eb\n",
    ):
        assert found(text) == [("data.no_inputs", True)], text
    # setting the shell up alone shows no work: nothing said (its work is elsewhere)
    assert found("module load gcc\nsource ~/spack/share/spack/setup-env.sh\n") == []
    # a program of the job's own after the build reads what it reads
    assert found("make\n./sim --input /data/mesh.h5\n") != [("data.no_inputs", True)]
    # a SkyPilot setup's building is its caller's to judge
    assert found("make\n", sets_up=[]) == []


def test_an_environment_script_sourced_is_not_a_program_of_the_job():
    # (seen-bk: Spack's `setup-env.sh`, sourced before `spack load tcl`)
    text = "source ~/spack/share/spack/setup-env.sh\nspack load tcl\necho $PATH\n"
    assert found(text) == [("data.no_inputs", True)]
    # a project's script sourced runs the work: not read as nothing
    assert found("source run.sh\n") == []


def test_a_repository_source_at_a_version_tag_is_software_not_data():
    # (seen-bk: Spack's release tarball, unpacked and run)
    url = "https://github.com/spack/spack/archive/refs/tags/v0.23.1.tar.gz"
    assert not [p for p in found(f"curl -LO {url}\n") if p[0] == "data.inputs"]
    # a branch's archive is as often a dataset's files: still read
    data = "https://github.com/brendenlake/omniglot/archive/master.zip"
    assert ("data.inputs", data) in found(f"wget {data}\n")


def test_a_kill_in_a_function_run_only_by_a_trap_stops_nothing_while_the_job_runs():
    # (seen-bl: `cleanup() { pkill -f jupyter-notebook; … }`, `trap cleanup EXIT`, a notebook
    # started with `&`, then `wait $JUPYTER_PID`: the server is kept up until the job ends)
    from jobs.jobformat.realtime import ends_serving

    kept = (
        'cleanup() {\n    pkill -u $USER -f "jupyter-notebook"\n    exit 0\n}\n'
        "trap cleanup SIGTERM EXIT\n"
        "jupyter notebook --no-browser --port=8888 > nb.log 2>&1 &\nPID=$!\nsleep 10\nwait $PID\n"
    )
    assert ends_serving(kept)
    # the same function also called as a step of its own stops the server: not kept
    called = kept.replace("sleep 10\n", "sleep 10\ncleanup\n")
    assert not ends_serving(called)
    # a kill outside any trap handler still stops it
    assert not ends_serving(
        "jupyter notebook --port=8888 &\nPID=$!\npython client.py\nkill $PID\nwait $PID\n"
    )


def test_the_folder_a_notebook_server_shows_is_not_data():
    # (seen-bl: `singularity exec --bind /glob/cache:/glob/cache img.sif jupyter notebook
    # --notebook-dir=/glob/cache/me/notebooks`: the user's own notebooks, not data read)
    text = (
        "singularity exec --bind /glob/cache:/glob/cache img.sif jupyter notebook "
        "--no-browser --notebook-dir=/glob/cache/me/notebooks\n"
    )
    assert found(text) == [
        ("data.unclassified", "/glob/cache -> /glob/cache"),
        ("work.image", "img.sif"),
    ]
    assert ("data.inputs", "/glob/cache/me/nb") not in found(
        text.replace(
            "--notebook-dir=/glob/cache/me/notebooks",
            "--NotebookApp.notebook_dir=/glob/cache/me/nb",
        )
    )
    # a data option through the same mount is still read
    assert ("data.inputs", "/glob/cache/me/set") in found(
        "singularity exec --bind /glob/cache:/glob/cache img.sif python x.py "
        "--dataset-path /glob/cache/me/set\n"
    )


def test_case_arms_are_all_kept_when_nested_or_the_variable_is_set_at_run_time():
    # (review) a case inside another: its arms are of another variable, its esac not the outer's
    nested = (
        'case "${FAMILY}" in\n'
        "  vit)\n"
        '    case "$SIZE" in\n'
        "      small)\n"
        "        huggingface-cli download northwind/vit-small\n"
        "        ;;\n"
        "      large)\n"
        "        huggingface-cli download northwind/vit-large\n"
        "        ;;\n"
        "    esac\n"
        "    ;;\n"
        "  seg)\n"
        "    huggingface-cli download northwind/seg\n"
        "    ;;\n"
        "esac\n"
    )
    assert [v for _, v in found(nested, variables={"FAMILY": "vit", "SIZE": "large"})] == [
        "hf://northwind/vit-small",
        "hf://northwind/vit-large",
        "hf://northwind/seg",
    ]
    arms = (
        'case "$MODE" in\n'
        "  train)\n"
        "    huggingface-cli download org/train-model\n"
        "    ;;\n"
        "  eval)\n"
        "    huggingface-cli download org/eval-model\n"
        "    ;;\n"
        "esac\n"
    )
    both = ["hf://org/train-model", "hf://org/eval-model"]
    given = {"MODE": "train"}
    assert [v for _, v in found("MODE=$(python pick.py)\n" + arms, variables=given)] == both
    looped = "for MODE in train eval; do\n" + arms + "done\n"
    assert [v for _, v in found(looped, variables=given)] == both
    assert [v for _, v in found("read -r MODE\n" + arms, variables=given)] == both
    # A default for the file's value leaves the value the file's.
    defaulted = 'MODE="${MODE:-eval}"\n' + arms
    assert [v for _, v in found(defaulted, variables=given)] == ["hf://org/train-model"]


def test_a_number_is_told_from_what_is_not_one():
    # (second review: a long run of digits ending in `e` took minutes; its timing is
    # portal.devtools.jobformat_bench's)
    for text in ("1" * 1_000 + "e", "1." * 500 + "x"):
        assert not commands.NUMBER.fullmatch(text)
    assert all(commands.NUMBER.fullmatch(t) for t in ("-1.5e-3", ".5", "5.", "+3", "9.99e+08"))


def test_thousands_of_values_of_one_field_are_noted_up_to_a_hundred_then_counted():
    options = " ".join(f"--data /lustre/ds/part_{i}" for i in range(250))
    [result] = jobformat.import_text(f"#!/bin/bash\n#SBATCH -N 1\npython t.py {options}\n".encode())
    read = [n for n in result.notes if n.startswith("data.inputs: /lustre")]
    assert len(read) == 100 and read[0].startswith("data.inputs: /lustre/ds/part_0 ")
    assert "data.inputs: 150 more read from the commands." in result.notes


def test_single_cell_pipelines_read_and_write_what_their_options_name():
    # Cell Ranger and Space Ranger write a folder named by --id; `--opt=value` is read as
    # `--opt value` for the options naming files; kb count's bare arguments are its reads
    text = (
        "cellranger count --id=s1 --transcriptome=/ref/refdata-gex-GRCh38 \\\n"
        "  --fastqs=fastq/s1 --sample=s1 --localcores=16\n"
        "spaceranger count --id v1 --transcriptome /ref/gex --fastqs raw/v1 --image img/v1.tif\n"
        "kb count -i index.idx -g t2g.txt -x 10xv3 -o kb_out r1.fastq.gz r2.fastq.gz\n"
        "cellbender remove-background --input s1/outs/raw.h5 --output cb/s1.h5 --cuda\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/ref/refdata-gex-GRCh38"),
        ("data.inputs", "fastq/s1"),
        ("output.artifacts", "s1"),
        ("data.inputs", "/ref/gex"),
        ("data.inputs", "raw/v1"),
        ("data.inputs", "img/v1.tif"),
        ("output.artifacts", "v1"),
        ("data.inputs", "index.idx"),
        ("data.inputs", "t2g.txt"),
        ("data.inputs", "r1.fastq.gz"),
        ("data.inputs", "r2.fastq.gz"),
        ("output.artifacts", "kb_out"),
        ("data.inputs", "s1/outs/raw.h5"),
        ("output.artifacts", "cb/s1.h5"),
    ]


def test_a_path_in_the_nodes_scratch_mounted_into_a_container_is_not_data():
    # seen-bo: a tool's database built in ${SLURM_TMPDIR} seen at /scratch in the container
    text = (
        'apptainer run --bind "${SLURM_TMPDIR}:/scratch" --bind "/lake/in:/data:ro" img.sif '
        "/data --db-dir /scratch/db\n"
    )
    found_ = found(text)
    assert not any("SLURM_TMPDIR" in str(v) for _, v in found_ if _ != "work.image")
    # the same option under a mount of the cluster's disk is still read
    assert ("data.inputs", "/lake/db") in found(
        'apptainer run --bind "/lake:/scratch" img.sif --db-dir /scratch/db\n'
    )


def test_the_cvmfs_software_tree_bound_at_its_own_place_is_not_data():
    # seen-bo: `--bind /cvmfs:/cvmfs:ro` for the cluster's modules
    text = 'apptainer run --bind "/cvmfs:/cvmfs:ro" --bind "/lake/x:/x" img.sif go\n'
    assert ("data.unclassified", "/cvmfs -> /cvmfs") not in found(text)
    assert ("data.unclassified", "/x -> /lake/x") in found(text)


def test_web_page_markup_left_in_a_script_runs_nothing():
    # seen-bo: directives copied from a web page with their <strong> tags
    text = '<strong>#SBATCH --array=0-31</strong>\necho "I am task $SLURM_ARRAY_TASK_ID"\n'
    assert found(text) == [("data.no_inputs", True)]
    # a redirection from a file is a command still
    assert ("data.no_inputs", True) not in found("<input.txt sort\n")
    # tags alone, or around a comment, run nothing; around a command, the command is read
    assert found("<pre>\necho hi\n</pre>\n") == [("data.no_inputs", True)]
    assert found("<p><em># set up</em></p>\necho hi\n") == [("data.no_inputs", True)]
    for line in ("<code>python train.py</code>", "<pre>python train.py", "<b> ./sim data/in"):
        assert ("data.no_inputs", True) not in found(line + "\necho hi\n"), line


def test_a_checkpoint_folder_a_chat_or_generation_program_loads_is_read_not_kept():
    # (seen-bq) Meta's llama examples: `--ckpt_dir` names the weights the program answers with
    text = (
        "torchrun --nproc_per_node 1 example_chat_completion.py --ckpt_dir llama-2-7b-chat/ "
        "--tokenizer_path tokenizer.model\n"
    )
    assert ("data.inputs", "llama-2-7b-chat/") in found(text)
    assert not [p for p in found(text) if p[0] == "request.checkpoint_location"]
    # a trainer's is still where it keeps its checkpoints
    text = "python train.py --ckpt_dir /ckpt/run1 --lr 3e-4\n"
    assert ("request.checkpoint_location", "/ckpt/run1") in found(text)
    # a Hub repository the setup clones and the run loads from its folder: one source
    data = sky_description(
        "resources:\n  accelerators: A100:1\n"
        "setup: git clone https://huggingface.co/org/chat-7b\n"
        "run: torchrun chat.py --ckpt_dir ~/sky_workdir/chat-7b --tokenizer_path t.model\n"
    )
    assert [i["location"] for i in data["data"]["inputs"]] == ["hf://org/chat-7b"]
    assert "checkpoint_location" not in data.get("request", {})
    # a file of the cloned folder (its tokenizer) is part of the same source
    data = sky_description(
        "resources:\n  accelerators: A100:1\n"
        "setup: git clone https://huggingface.co/org/chat-7b\n"
        "run: torchrun chat.py --ckpt_dir ~/sky_workdir/chat-7b"
        " --tokenizer_path ~/sky_workdir/chat-7b/tokenizer.model\n"
    )
    assert [i["location"] for i in data["data"]["inputs"]] == ["hf://org/chat-7b"]
    # (review) a trainer of chat or generation models, by its name or told how long to train,
    # keeps its checkpoints there: it loads nothing from them
    for text in (
        "python chat_finetune.py --ckpt_dir /scratch/ckpts --epochs 3\n",
        "python sft_chat.py --ckpt_dir /scratch/ckpts\n",
        "python image_generation.py --checkpoint_dir /scratch/ckpts --max_steps 5000\n",
    ):
        assert ("data.inputs", "/scratch/ckpts") not in found(text), text
        assert ("request.checkpoint_location", "/scratch/ckpts") in found(text), text


def test_an_options_array_mounting_the_submit_directory_maps_the_programs_paths():
    # (seen-bp: `: "${IMAGE:=$(pwd)/x.sqsh}"`, `: "${MOUNT:=$(pwd):$DATA_PATH}"`, both handed to
    # srun in an array): the image is in the submit directory, which is mounted at /fsx, so the
    # paths the program is given under /fsx are the submit directory's
    body = (
        ': "${IMAGE:=$(pwd)/train.sqsh}"\n'
        ': "${DATA_PATH:=/fsx}"\n'
        ': "${MOUNT:=$(pwd):$DATA_PATH}"\n'
        "declare -a ARGS=(\n"
        "    --container-image $IMAGE\n"
        "    --container-mounts $MOUNT\n"
        ")\n"
        'srun -l "${ARGS[@]}" python pretrain_gpt.py --data-path ${DATA_PATH}/corpus_text_document\n'
    )
    [result] = jobformat.import_text(("#!/bin/bash\n#SBATCH --nodes=2\n" + body).encode())
    work, data = result.description.work, result.description.data
    assert work.image == "$PWD/train.sqsh"
    assert work.code == ["$PWD"]
    assert [i.location for i in data.inputs] == ["$PWD/corpus_text_document"]
    # after a `cd`, `$(pwd)` is no longer the submit directory: the image is not stated
    moved = "cd /scratch/run\n" + body
    [later] = jobformat.import_text(("#!/bin/bash\n#SBATCH --nodes=2\n" + moved).encode())
    assert later.description.work.image is None
    # (review) each array's mounts are its own, and only srun or a container runner takes them
    arrays = (
        "declare -a A=(\n --container-mounts /lake/a:/data\n)\n"
        "declare -a B=(\n --container-mounts /lake/b:/data\n)\n"
    )
    assert ("data.inputs", "/lake/b/x") in found(
        arrays + 'srun "${B[@]}" python t.py --foo /data/x\n'
    )
    assert ("data.inputs", "/lake/a/x") not in found(
        arrays + 'srun "${B[@]}" python t.py --foo /data/x\n'
    )
    for line in (
        'python prep.py --foo /data/x "${EXTRA[@]}"\n',
        'python prep.py --foo /data/x "${A[@]}"\n',
    ):
        assert not [p for p in found(arrays + line) if p[1].endswith("/x")], line


def test_an_image_under_pwd_after_any_change_of_directory_or_in_a_directive_is_not_stated():
    head = "#!/bin/bash\n#SBATCH --nodes=2\n"
    run = "IMAGE=$(pwd)/t.sqsh\nsrun --container-image=$IMAGE python t.py\n"

    def image(text):
        [result] = jobformat.import_text((head + text).encode())
        return result.description.work.image, result.notes

    # `cd` after `&&` or `;`, `pushd`, or --chdir: `$(pwd)` is not the submit directory
    for moved in (
        "mkdir -p /scratch/r && cd /scratch/r\n",
        "mkdir -p /scratch/r; cd /scratch/r\n",
        "pushd /scratch/r\n",
        "#SBATCH -D /scratch/r\n",
        "#SBATCH --chdir=/scratch/r\n",
    ):
        stated, notes = image(moved + run)
        assert stated is None, moved
        assert any("$(pwd)/t.sqsh" in n and "not stated" in n for n in notes), moved
    # sbatch runs no command in a directive: the text is no image
    stated, notes = image("#SBATCH --container-image=$(pwd)/x.sqsh\nsrun python t.py\n")
    assert stated is None
    assert any("does not run" in n for n in notes)
    # with no change of directory it is the submit directory's
    assert image(run)[0] == "$PWD/t.sqsh"
    assert image(run + "my_cd_tool x\n")[0] == "$PWD/t.sqsh"


def test_maxtexts_output_folder_a_doubled_slash_mount_and_a_commented_out_option():
    # (seen-bp) MaxText's `base_output_directory=` names the folder it writes, a local one too;
    # a checkpoint place when checkpointing is on: MaxText's trainer has it on by default
    # (base.yml `enable_checkpointing: True`, review 1), so only `=false` leaves an output alone
    off = "python3 MaxText/train.py base_output_directory=/scratch/out enable_checkpointing=false\n"
    assert found(off) == [("output.artifacts", "/scratch/out")]
    for text in (
        "python3 MaxText/train.py base_output_directory=/scratch/out enable_checkpointing=true\n",
        "python3 MaxText/train.py base_output_directory=/scratch/out steps=10\n",
        "python3 MaxText/train.py MaxText/configs/base.yml base_output_directory=gs://b/out\n",
        "python3 -m MaxText.train MaxText/configs/base.yml base_output_directory=gs://b/out\n",
    ):
        place = text.split("base_output_directory=")[1].split()[0]
        assert found(text) == [
            ("request.checkpoint_location", place),
            ("output.artifacts", place),
        ], text
    # …and another program's, only when told to
    other = "python3 run.py base_output_directory=/scratch/out enable_checkpointing=true\n"
    assert found(other) == [("request.checkpoint_location", "/scratch/out")]
    assert found("python3 run.py base_output_directory=/scratch/out\n") == [
        ("output.artifacts", "/scratch/out")
    ]
    # `$D:/$T` with T=/mnt/work mounts at //mnt/work: the same path as /mnt/work
    body = 'T=/mnt/work\nsrun --container-image=x --container-mounts="/lus/d:/$T" python a.py\n'
    assert ("data.unclassified", "/mnt/work -> /lus/d") in found(body)
    # a comment ending in `\` continues nothing: the settings after it are read
    commented = (
        "#    --codecarbon-dir $CC \\\n"
        'OUT_ARGS=" \\\n    --tensorboard-dir /scratch/tb \\\n    "\n'
        "python pretrain_gpt.py $OUT_ARGS\n"
    )
    assert found(commented) == [("output.artifacts", "/scratch/tb")]


def test_a_dataset_loaded_from_disk_is_a_local_folder_not_a_hub_id():
    # (seen-bp: `--dataset_name final_dataset --load_from_disk`, a folder `save_to_disk` made)
    text = "python run_clm.py --dataset_name final_dataset --load_from_disk --do_train\n"
    assert found(text) == [("data.inputs", "final_dataset")]
    assert found("python run_clm.py --dataset_name squad --do_train\n") == [
        ("data.inputs", "hf://datasets/squad")
    ]


def test_printing_the_nodes_own_description_reads_no_data():
    # (seen-bp: a container check, `echo …` then `grep PRETTY /etc/os-release`)
    assert found('echo "inside:"\ngrep PRETTY /etc/os-release\n') == [("data.no_inputs", True)]
    assert found("cat /proc/cpuinfo\nnvidia-smi\n") == [("data.no_inputs", True)]
    # a file of the job's own after it is read, and so is a second file given to grep
    assert found("cat /proc/cpuinfo\npython train.py\n") == []
    assert found("grep PRETTY /etc/os-release data.txt\n") == []


def test_the_nodes_own_description_read_beside_a_data_file_is_no_quiet_step():
    # every file cat or grep is given must be the node's description, wherever it stands
    for line in (
        "cat /lake/d.txt /etc/hostname",
        "grep -f /lake/p.txt /etc/os-release",
        "cat < /lake/d.txt /etc/hostname",
    ):
        assert ("data.no_inputs", True) not in found(line + "\n"), line
    # options, several patterns, a redirection or a pipe after it change nothing
    for line in (
        "grep -i PRETTY /etc/os-release 2>/dev/null",
        "grep -e PRETTY -e NAME /etc/os-release",
        'grep -m 1 "model name" /proc/cpuinfo | cut -d: -f2',
        "cat /etc/os-release /proc/meminfo > node.txt",
    ):
        assert found(line + "\n") == [("data.no_inputs", True)], line


def test_a_shell_given_its_script_after_combined_switches_is_read_inside():
    # (seen-bp: `srun bash -lc 'torchrun … --model ${MODEL_NAME:-org/name}'`)
    text = "srun bash -lc 'torchrun --nproc_per_node=8 train.py --model ${M:-acme/base-3b}'\n"
    assert found(text) == [("data.inputs", "hf://acme/base-3b")]
    assert found("sh -ec 'python train.py --model acme/base-3b'\n") == [
        ("data.inputs", "hf://acme/base-3b")
    ]


def test_psql_reads_the_sql_file_it_runs_and_writes_its_results_file():
    # the connection string and the database name are bare words, not files
    text = (
        "psql postgresql://u:p@localhost:5433/scratch -f /scratch/db/dump.sql\n"
        "psql -d results --file=queries/summary.sql -o /scratch/out/summary.txt\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "/scratch/db/dump.sql"),
        ("data.inputs", "queries/summary.sql"),
        ("output.artifacts", "/scratch/out/summary.txt"),
    ]


def test_a_comment_after_a_command_is_not_read_as_a_step():
    # bash ends the command at a word starting with `#`: the NCCL test still reads nothing
    text = (
        "export LD_LIBRARY_PATH=/opt/aws-ofi-nccl/lib:$LD_LIBRARY_PATH  # enable aws-ofi-nccl\n"
        "srun torchrun --nnodes 2 --nproc_per_node 4 ./nccl_test.py\n"
    )
    assert found(text) == [("data.no_inputs", True)]
    # (a `#` inside a word is no comment: `cat notes#1` still reads its file)
    assert ("data.no_inputs", True) not in found("cat notes#1.txt\n./nccl_test.py\n")


def test_a_serving_benchmarks_dataset_kind_is_no_hub_dataset_its_path_is_read():
    text = (
        "python benchmarks/benchmark_serving.py --backend vllm --model org/m \\\n"
        "  --dataset-name sharegpt --dataset-path /data/ShareGPT_V3.json --num-prompts 10\n"
        "vllm bench serve --model org/m --dataset-name sonnet --num-prompts 10\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://org/m"),
        ("data.inputs", "/data/ShareGPT_V3.json"),
    ]
    # a trainer's `--dataset_name` keeps naming a Hub dataset, and an org's dataset is one
    assert ("data.inputs", "hf://datasets/org/sharegpt") in found(
        "python bench.py --dataset-name org/sharegpt\n"
    )


def test_hub_downloads_by_a_tool_runner_and_files_named_after_the_repository():
    text = (
        "uvx hf@latest download --repo-type dataset northwind/clips --revision abc1 --local-dir d\n"
        "uvx hf@latest download northwind/vae vae.pth --local-dir ckpt/vae --quiet\n"
        "huggingface-cli download northwind/seg unet/model.safetensors config.json\n"
        "hf download northwind/tok --local-dir t\n"
    )
    assert found(text) == [
        ("data.inputs", "hf://datasets/northwind/clips"),
        ("data.inputs", "hf://northwind/vae/vae.pth"),
        ("data.inputs", "hf://northwind/seg/unet/model.safetensors"),
        ("data.inputs", "hf://northwind/seg/config.json"),
        ("data.inputs", "hf://northwind/tok"),
    ]
    # A word after the repository that is no file's name (a glob, a stray word): the repository.
    assert found("hf download northwind/seg '*.bin' > log\n") == [
        ("data.inputs", "hf://northwind/seg")
    ]
    assert found("uvx hf@1.0 upload northwind/out ./o\n") == [
        ("output.artifacts", "hf://northwind/out")
    ]


def test_dockers_test_image_run_for_its_own_program_reads_nothing():
    for run in (
        "docker run --rm hello-world\n",
        "podman run docker.io/library/hello-world:latest\n",
    ):
        assert ("data.no_inputs", True) in found(run), run
    # Another image's own program may read anything: not said.
    assert ("data.no_inputs", True) not in found("docker run --rm northwind/hello-world-app\n")


def test_compose_up_of_a_web_ui_in_the_foreground_is_a_server_without_ports_too():
    from jobs.jobformat.realtime import ends_serving

    assert ends_serving("git clone x.git\ncd stable-diffusion-webui-docker\ndocker-compose up\n")
    assert ends_serving("docker compose -f web-ui.yml up\n")
    # Detached, told to end with a container, or a stack not named a web UI: not said.
    assert not ends_serving("cd sd-webui\ndocker-compose up -d\n")
    # A web app's test suite, benchmark or CI brought up is no server.
    for folder in ("webapp-tests", "webui-bench", "web_app_ci"):
        assert not ends_serving(f"cd {folder}\ndocker compose up\n"), folder
    assert not ends_serving("cd sd-webui\ndocker compose up --abort-on-container-exit\n")
    assert not ends_serving("cd /srv/pipeline\ndocker compose up\n")


def test_meeps_control_file_is_its_deck():
    text = "mpirun -np $SLURM_NTASKS meep-mpi ring.ctl > ring.out\nmeep resolution=20 bend.ctl\n"
    assert found(text, shared_disk=True)[:1] == [("data.inputs", "ring.ctl")]
    assert found("meep bend.ctl\n", shared_disk=True) == [("data.inputs", "bend.ctl")]
    # (a file name with an unfilled template field, `{__MAX_MIN__}`, names no place yet)
    assert not found("meep-mpi meep-{__MAX_MIN__}.ctl > run.log\n", shared_disk=True)
    # a control file handed to a Python program is its argument, not a deck
    assert not found("python fit.py run.ctl\n", shared_disk=True)


def test_an_image_a_tool_is_told_to_write_is_an_output():
    text = (
        "PT=/opt/envs/pt/bin/python\n"
        "time $PT render.py scene.yaml --device cuda --output scene_gpu.png\n"
        "python plot.py --output figs/loss.svg\n"
    )
    assert found(text, shared_disk=True) == [
        ("output.artifacts", "scene_gpu.png"),
        ("output.artifacts", "figs/loss.svg"),
    ]
    # a launcher's --output is its log; an image read under another option is no output
    assert not found("srun --output frame.png ./a\n", shared_disk=True)
    shown = found("python show.py --input frame.png\n", shared_disk=True)
    assert not [p for p in shown if p[0] == "output.artifacts"]


def test_a_structure_file_under_a_single_dash_option_is_read():
    text = "openmm_npt.sh -pdb 1btl.pdb\nrun_md.py -sdf ligs/lig.sdf -mol2 ligs/lig.mol2\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "1btl.pdb"),
        ("data.inputs", "ligs/lig.sdf"),
        ("data.inputs", "ligs/lig.mol2"),
    ]
    # GROMACS names its files by -f/-o, never -pdb: a bare -pdb switch with no file is nothing
    assert not found("tool -pdb -v\n", shared_disk=True)


def test_a_server_given_its_options_before_the_model_serves_the_model_after_them():
    # A variable holding the options, then an option's values, then the model.
    text = (
        'OPTS="-tp 4"\n'
        "nohup vllm serve $OPTS --gpu-memory-utilization 0.94 \\\n"
        "    --served-model-name seg --revision $REV northwind/seg-7b > vllm.log 2>&1 &\n"
    )
    assert found(text) == [("data.inputs", "hf://northwind/seg-7b")]
    # The model given as a variable with no value in the file: a Hub id set at launch.
    assert found("vllm serve --port 8000 $MODEL &\n") == [("data.inputs", "hf://$MODEL")]
    assert found("vllm serve $SERVED --port 8000\n") == [("data.inputs", "hf://$SERVED")]
    # No model after the options (it is in a config, or hidden by a switch): nothing said.
    assert found("vllm serve --config serve.yaml > log 2>&1\n") == []
    assert found("vllm serve --port 8000 && python bench.py\n") == []
    # A variable of options the file leaves unset is not the model: the one named for it is.
    set_model = "MODEL=meta-llama/Llama-3-8B\nvllm serve $SERVE_ARGS $MODEL\n"
    assert found(set_model) == [("data.inputs", "hf://meta-llama/Llama-3-8B")]
    assert found("vllm serve $VLLM_FLAGS $MODEL\n") == [("data.inputs", "hf://$MODEL")]
    assert found("vllm serve org/m $EXTRA_ARGS\n") == [("data.inputs", "hf://org/m")]
    # A known on/off switch before the model takes no value.
    for switch in ("--enable-prefix-caching", "--trust-remote-code", "--enforce-eager"):
        text = f"vllm serve --port 8000 {switch} meta-llama/Llama-3-8B\n"
        assert found(text) == [("data.inputs", "hf://meta-llama/Llama-3-8B")], switch


def test_the_sra_toolkit_reads_the_runs_it_fetches_by_accession():
    assert found("fasterq-dump SRR378098\n", shared_disk=True) == [("data.inputs", "SRR378098")]
    # The script's argument is the run; -O is the copy (the output of a job that only fetches),
    # -t its scratch, not a run.
    text = "sra=$1\nout=$2\nfasterq-dump -t /lscratch/$SLURM_JOBID -e 8 -O $out $sra\n"
    assert found(text, shared_disk=True) == [
        ("data.inputs", "$sra"),
        ("output.artifacts", "$out"),
    ]
    # …and what the job then does with the copy is staging, not its output.
    text = "prefetch ERR204938 -O /scratch/u/sra\nfasterq-dump /scratch/u/sra/ERR204938\n"
    assert ("data.inputs", "ERR204938") in found(text, shared_disk=True)
    assert ("output.artifacts", "/scratch/u/sra") not in found(text, shared_disk=True)
    # An unfilled template field (`{SRA}`) or a word that is no accession is not read.
    assert found("fastq-dump --split-files {SRA}\n", shared_disk=True) == []
    assert found("fastq-dump --split-files SAMPLE\n", shared_disk=True) == []


def test_htar_writes_its_archive_on_hpss_and_reads_what_it_packs():
    text = "cd /proj/run\nhtar -Hcrc -cvf /home/p/run.tar -L /scratch/u/list.txt\n"
    assert found(text, shared_disk=True) == [("output.artifacts", "/home/p/run.tar")]
    # A relative archive is under the HPSS home, not the folder changed into.
    text = "cd /proj\nhtar -T 4 -cvPf runs.tar runs/\n"
    assert found(text, shared_disk=True) == [
        ("output.artifacts", "runs.tar"),
        ("data.inputs", "/proj/runs/"),
    ]
    assert found("htar -xvf /home/p/run.tar\n", shared_disk=True) == [
        ("data.inputs", "/home/p/run.tar")
    ]


def test_an_output_moved_after_it_is_written_is_where_it_lands():
    # (also past the clean-up of a failure branch, and a test splitting at `||`)
    text = (
        'd="$1"\no="$2"\nif [[ -z "$d" || -z "$o" ]]; then\n  exit 1\nfi\n'
        'tmp="$o.unfinished"\ntar -cvf "$tmp" "$d"\n'
        'if [[ $? -ne 0 ]]; then\n  rm -f "$tmp"\n  exit 1\nfi\nmv "$tmp" "$o"\n'
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "$d"),
        ("output.artifacts", "$o"),
    ]
    # A file the job did not write, moved, is no output of it.
    assert found("mv /p/a.csv /p/b.csv\n", shared_disk=True) == []


def test_a_key_handed_into_a_container_by_name_is_a_credential():
    text = (
        "singularity exec --cleanenv --bind /s/wandb:/wandb --env WANDB_API_KEY=${WANDB_API_KEY} "
        'img.sif bash -c "cd /wandb && wandb sync --sync-all"\n'
    )
    assert ("work.credentials", "WANDB_API_KEY") in found(text, shared_disk=True)
    text = (
        "docker run -e HF_TOKEN -e CUDA_VISIBLE_DEVICES=0 --env=A=1,MY_SECRET=$S img python x.py\n"
    )
    keys = [v for p, v in found(text, shared_disk=True) if p == "work.credentials"]
    assert keys == ["HF_TOKEN", "MY_SECRET"]
    # apptainer's -e is --cleanenv: the word after it is the image, no key.
    assert not [
        v
        for p, v in found("apptainer exec -e token_img.sif python x.py\n", shared_disk=True)
        if p == "work.credentials"
    ]


def test_a_container_key_is_named_never_shown_and_settings_are_no_keys():
    # the note names the variable handed in, never the value given to it
    text = "#!/bin/bash\n#SBATCH --time=1:00:00\n"
    for line, said in (
        ("docker run --env=FOO=1,WANDB_API_KEY=abcSECRET img python t.py", "`--env WANDB_API_KEY`"),
        ("docker run -e HF_TOKEN=hf_x1 img python t.py", "`-e HF_TOKEN`"),
    ):
        (result,) = jobformat.import_text((text + line + "\n").encode())
        notes = [n for n in result.notes if n.startswith("work.credentials")]
        assert notes and said in notes[0], notes
        assert not any("abcSECRET" in n or "hf_x1" in n for n in result.notes)
    # a setting named with a key's letters inside a word, or set to on/off or a number, is none
    for setting in (
        "TOKENIZERS_PARALLELISM=false",
        "KEYBOARD_LAYOUT=us",
        "MONKEY=1",
        "PRIMARY_KEY_COLUMN=id",
        "USE_AUTH_TOKEN=1",
    ):
        keys = [
            v
            for p, v in found(f"docker run -e {setting} img python x.py\n", shared_disk=True)
            if p == "work.credentials"
        ]
        assert keys == [], setting


def test_a_checkpoint_file_a_trainer_starts_from_is_read():
    text = (
        "srun python -m pkg.surrogate fit --config runs/s17/config.yaml"
        " --ckpt_path 'runs/s17/checkpoints/epoch=170_val-acc=0.905.ckpt'\n"
    )
    assert found(text, shared_disk=True) == [
        ("data.inputs", "runs/s17/checkpoints/epoch=170_val-acc=0.905.ckpt")
    ]
    text = "python train.py --resume_from_checkpoint /nfs/ckpts/epoch-3.ckpt\n"
    assert found(text, shared_disk=True) == [("data.inputs", "/nfs/ckpts/epoch-3.ckpt")]
    # the latest of its own (`last`), a bare file name, or its own save place: no input
    assert found("python train.py --ckpt_path last\n") == []
    assert found("python train.py --ckpt_path best.ckpt\n") == []
    # its own last.ckpt, or a checkpoint under a place the same command writes: it resumes
    own = "python train.py --resume_from_checkpoint outputs/run1/last.ckpt --output_dir outputs/run1\n"
    assert found(own) == [("output.artifacts", "outputs/run1")]
    assert found("python train.py --ckpt_path logs/version_3/checkpoints/last.ckpt\n") == []
    assert found("python train.py --ckpt_path ckpt/e3.ckpt --default_root_dir ckpt\n") == []
    text = "python train.py --save_dir runs/a --save_every 100 --ckpt_path runs/a/last.ckpt\n"
    assert found(text, shared_disk=True) == [
        ("request.checkpoint_location", "runs/a"),
        ("request.preemptible", True),
    ]


def test_a_program_told_to_train_by_a_flag_is_a_trainer_and_one_dash_save_is_save():
    text = (
        "corpus=$1\n"
        "srun python -u codes/run.py --do_train --cuda \\\n"
        " --data_path data/${corpus} \\\n"
        " -save models/${corpus}\n"
    )
    assert found(text) == [
        ("data.inputs", "data/${corpus}"),
        ("request.checkpoint_location", "models/${corpus}"),
    ]
    assert ("data.inputs", "data/$c") in found(
        "c=$1\npython run.py --do-train --data_path data/$c\n"
    )
    # No flag to train, no argument behind the folder, or a folder not named for data: unsaid.
    assert found("corpus=$1\npython run.py --data_path data/${corpus}\n") == []
    assert found("python run.py --do_train --data_path data/${corpus}\n") == []
    assert found("c=$1\npython run.py --do_train --data_path out/${c}\n") == []
    assert found("c=$1\npython run.py --do_training --data_path data/${c}\n") == []


def test_a_variable_set_to_slurms_submit_directory_is_the_submit_directory():
    from jobs.jobformat.envs import script_variables

    for setting in (
        'P="${SLURM_SUBMIT_DIR}"',
        "export P=$SLURM_SUBMIT_DIR",
        'P="${SLURM_SUBMIT_DIR:-$(pwd)}"',
        'P="${SLURM_SUBMIT_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"',
    ):
        assert script_variables(setting + "\n").values["P"] == "$PWD", setting
        text = (
            f"{setting}\n"
            'C="${P}/x.sif"\n'
            'apptainer exec --nv --bind "${P}:/workspace" --pwd /workspace "$C" python t.py\n'
        )
        assert ("work.image", "$PWD/x.sif") in found(text), setting
        assert ("work.code", "$PWD") in found(text), setting
    assert script_variables("P=$SLURM_SUBMIT_DIRX\n").values.get("P") != "$PWD"
    # A place under it is that place, not the directory itself (seen-bw's results folder).
    for setting in ("R=$SLURM_SUBMIT_DIR/results/${ID}", 'R="${SLURM_SUBMIT_DIR}/results"'):
        assert script_variables(setting + "\n").values.get("R") != "$PWD", setting
    # Set again later to another place: that place.
    assert script_variables('P="$SLURM_SUBMIT_DIR"\nP=/scratch/p\n').values.get("P") != "$PWD"


def test_a_signing_key_or_certificate_fetched_for_the_package_manager_is_no_data():
    text = (
        "sudo install -m 0755 -d /etc/apt/keyrings\n"
        "sudo curl -fsSL https://packages.example.org/linux/debian/gpg -o /etc/apt/keyrings/ex.asc\n"
        "curl -fsSL https://repo.example.org/key | sudo gpg --dearmor -o /usr/share/keyrings/r\n"
        "wget -qO- https://apt.example.net/pubkey | sudo apt-key add -\n"
        "curl -o /usr/local/share/ca-certificates/site.crt https://pki.example.org/root\n"
        "sudo apt-get update && sudo apt-get install -y tool-cli\n"
    )
    assert [fact for fact in found(text) if fact[0] == "data.inputs"] == []
    # a data file saved under its own name is still read
    text = "curl -fsSL https://files.example.org/tides/2024.csv -o tides.csv\npython fit.py\n"
    assert ("data.inputs", "https://files.example.org/tides/2024.csv") in found(text)


def test_a_release_unpacked_into_the_system_a_key_for_apt_and_version_checks_read_nothing():
    text = (
        "TOOL_VERSION=v1.4.0\n"
        'curl -fsSL "https://github.com/example/tool/releases/download/${TOOL_VERSION}/tool.tar.gz"'
        " | sudo tar -xz -C /usr/local bin/tool\n"
        "tool --version\n"
        "sudo install -m 0755 -d /etc/apt/keyrings\n"
        "sudo curl -fsSL https://packages.example.org/debian/gpg -o /etc/apt/keyrings/ex.asc\n"
        "curl -fsSL https://packages.example.org/debian/gpg | sudo gpg --dearmor -o /etc/ex.gpg\n"
        "sudo chmod a+r /etc/apt/keyrings/ex.asc\n"
        "sudo apt-get update && sudo apt-get install -y ex-cli\n"
        "docker --version\n"
    )
    assert found(text) == [("data.no_inputs", True)]
    # a data archive unpacked from the same kind of pipe is read
    text = (
        "curl -fsSL https://files.example.org/tides/2024.tar.gz | tar -xz -C data\npython fit.py\n"
    )
    assert ("data.inputs", "https://files.example.org/tides/2024.tar.gz") in found(text)
    # and a container run is still its program's work
    assert ("data.no_inputs", True) not in found("docker run --rm ex/app:1 serve\n")


def test_a_tokenizer_path_handed_to_the_program_is_read():
    text = (
        "torchrun --nproc_per_node 2 chat.py --ckpt_dir ~/weights/13B"
        " --tokenizer_path ~/weights/tokenizer.model\n"
    )
    assert ("data.inputs", "~/weights/tokenizer.model") in found(text)
    # a Hub id under it stays a Hub model, and a bare word (a tokenizer's kind) is no path
    assert ("data.inputs", "hf://northwind/tok-32k") in found(
        "python train.py --tokenizer-path northwind/tok-32k\n"
    )
    assert not [
        f
        for f in found("python train.py --tokenizer_path sentencepiece\n")
        if f[0] == "data.inputs"
    ]


def test_an_assignment_with_a_comment_after_it_is_read_as_one_without():
    # seen-cb's DeepFilterNet: `DATA_DIR=${DATA_DIR:-$CLUSTER/Data/HDF5}  # the HDF5s`
    text = "DATA_DIR=${DATA_DIR:-/x/Data}  # the HDF5s\npython train.py $DATA_DIR\n"
    assert ("data.inputs", "/x/Data") in found(text)
    # A `#` inside quotes or a word is no comment.
    assert commands.COMMENTED_ASSIGNMENT.match('X="a # b"') is None
    assert commands.COMMENTED_ASSIGNMENT.match("X=a#b") is None
    # A name set twice is shown with the line that gives the value used: the last one.
    text = "DATA_DIR=/lustre/x # c\nDATA_DIR=/other\npython train.py --data $DATA_DIR\n"
    (read,) = [p for p in commands.read(text) if p.path == "data.inputs"]
    assert (read.value, read.line, read.said) == ("/other", 2, "DATA_DIR=/other")


def test_an_mpi_launcher_given_the_scripts_arguments_runs_a_program_chosen_at_submission():
    for step in ('mpiexec "$@"', "mpirun -np 10 $@", "srun python $@"):
        text = f"#!/bin/bash\n#SBATCH -n 10\n#SBATCH -t 5\n{step}\n"
        (result,) = jobformat.import_text(text.encode(), filename="slurm.sh")
        assert result.description.request.no_accelerators is None, step
    text = "#!/bin/bash\n#SBATCH -n 10\n#SBATCH -t 5\nmpiexec ./sim in.txt\n"
    (result,) = jobformat.import_text(text.encode(), filename="slurm.sh")
    assert result.description.request.no_accelerators is True


def test_a_resubmission_through_sh_c_continued_over_lines_is_noted_whole():
    text = (
        "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH -t 60\n"
        "python train.py /x/data.h5 &\nwait\n"
        'sh -c "sbatch --exclude=$EXCLUDE \\\n  --job-name=df \\\n  $HOME/p/sbatch/train.sh $B"\n'
    )
    (result,) = jobformat.import_text(text.encode(), filename="train.sh")
    assert any("sbatch/train.sh" in n and "submits another job" in n for n in result.notes)


def test_an_index_of_the_data_handed_to_a_trainer_is_read():
    text = "python train_bert.py --index_db_path /d/uniref100.idx --fasta_path /d/u.fasta\n"
    assert ("data.inputs", "/d/uniref100.idx") in found(text)
    # An indexing step's index is what it builds, not data it reads.
    assert ("data.inputs", "/d/u.idx") not in found("python build.py --index_path /d/u.idx\n")
    # An option named for what the program writes names its output, not data it reads.
    for option in ("--output_index_file", "--save_index_path", "--dump-index-file"):
        text = f"python train.py {option} /x/out.idx\n"
        assert ("data.inputs", "/x/out.idx") not in found(text)


def test_a_quoted_override_is_an_override_in_an_array_too():
    text = 'python train.py "+args=c.yaml" "++args.data_path=/d/pde"\n'
    assert ("data.inputs", "/d/pde") in found(text)
    text = 'ARGS=(\n    "+args=c.yaml"\n    "++args.data_path=${DATA_PATH}"\n)\npython t.py "${ARGS[@]}"\n'
    assert ("data.inputs", "${DATA_PATH}") in found(text)


def test_a_file_moved_into_a_folder_named_for_what_the_job_makes_is_an_output():
    text = (
        "python train.py --epochs 3\n"
        "M=$(ls -t *.pt | head -n 1)\n"
        'mv "${M}" "${TRAINED_MODELS_DIR}/${NAME}.pt"\n'
    )
    assert ("output.artifacts", "${TRAINED_MODELS_DIR}") in found(text)
    # A folder named for nothing the job makes says nothing.
    text = 'python train.py\nmv "${M}" "${CACHE_DIR}/x.pt"\n'
    assert not [p for p in found(text) if p[0] == "output.artifacts"]


def test_the_data_file_after_a_programs_train_subcommand_is_read():
    text = "python main.py train punct_restore_20231101.fr.jsonl -m xlm\n"
    assert ("data.inputs", "punct_restore_20231101.fr.jsonl") in found(text)
    assert ("data.inputs", "rows.csv") in found("python cli.py fit rows.csv\n")
    # Weights after it, or a file an earlier step wrote, are no data it trains on.
    assert not [p for p in found("python main.py train best.pt\n") if p[0] == "data.inputs"]
    text = "python prep.py --output rows.csv\npython main.py train rows.csv\n"
    assert ("data.inputs", "rows.csv") not in found(text)
    # a URL keeps where the data is, not the password or query given to reach it
    text = "python main.py train https://u:secretpw@h/x.jsonl\n"
    assert found(text) == [("data.inputs", "https://h/x.jsonl")]


def test_machine_set_up_steps_read_nothing():
    # the node's disks listed, a file system (re)mounted, the system's settings moved aside
    assert ("data.no_inputs", True) in found("echo hi\nlsblk\n")
    # a quoted blank word before it names no program (and breaks nothing)
    assert sbatch_description("' ' lsblk\n") is not None
    assert ("data.no_inputs", True) in found(
        "sudo mount -o remount,exec /usr/local/lib64\nnvidia-smi\n"
    )
    assert ("data.no_inputs", True) in found(
        "sudo mv /etc/apt/sources.list.d/k.list /etc/apt/sources.list.d/k.list.save || true\n"
        "nvidia-smi\n"
    )
    # a file copied out of /etc into the job's own folder is still read
    assert ("data.no_inputs", True) not in found("cp /etc/app/data.csv work/\nnvidia-smi\n")
    # the folder changed into is a place, not a program (`cd ./nccl-tests`)
    assert ("data.no_inputs", True) in found("cd ./nccl-tests\n./build/all_reduce_perf -b 8\n")
    # an installer piped into a shell given its settings, as k3s's is
    text = "curl -sfL https://get.k3s.io | K3S_URL=https://${HEAD}:6443 K3S_TOKEN=t sh -\n"
    assert not [f for f in found(text) if f[0] == "data.inputs"]
    # a command run by `sh -c` on what is piped in is no installer: the download is read
    text = "curl -L https://ex.org/d.tsv | A=1 sh -c 'cat > /data/x.tsv'\n"
    assert ("data.inputs", "https://ex.org/d.tsv") in found(text)
    assert ("data.no_inputs", True) not in found(text)


def test_a_task_with_neither_setup_nor_run_reads_nothing():
    data = sky_description("resources:\n  cloud: aws\n  accelerators: K80\n")
    assert data["data"]["no_inputs"] is True
    # a bucket mounted and never named stays unclassified beside it (as for a run that echoes)
    data = sky_description(
        "resources:\n  accelerators: K80\nfile_mounts:\n  /data:\n    source: s3://bkt/x\n"
    )
    assert data["data"]["unclassified"] == ["/data -> s3://bkt/x"]


def test_a_container_in_the_foreground_publishing_the_tasks_port_serves():
    from jobs.jobformat.realtime import ends_serving

    run = "docker run --gpus all -p 8080:80 -v ~/data:/data ex/server:latest --model-id m\n"
    assert ends_serving(run, opens_ports=frozenset({"8080"}))
    # not a port the task opens, or detached and followed by work that ends: batch
    assert not ends_serving(run, opens_ports=frozenset({"9000"}))
    assert not ends_serving("docker run --rm ex/train:1 python fit.py\n", opens_ports=True)


def test_a_pretrain_option_names_the_base_model():
    text = "deepspeed --module openrlhf.cli.train_dpo --pretrain northwind/base-8b --bf16\n"
    assert ("data.inputs", "hf://northwind/base-8b") in found(text)


def test_a_server_left_up_in_the_background_and_only_checked_after_serves():
    from jobs.jobformat.realtime import ends_serving

    run = (
        "docker-compose down\n"
        "docker-compose -f docker-compose.yaml up -d\n"
        "while ! curl -s http://localhost:8080/v1/health; do\n"
        '  echo "not ready"\n  sleep 5\ndone\necho "ready"\n'
    )
    assert ends_serving(run, opens_ports=frozenset({"8080"}))
    # with no ports opened, or work done with it after: the run ends, batch
    assert not ends_serving(run)
    assert not ends_serving(run + "python bench.py --url http://localhost:8080\n", opens_ports=True)


def test_a_save_path_with_saving_turned_off_receives_the_final_model():
    text = "deepspeed --module x.train --save_path /ckpt/final --save_steps -1 --pretrain a/b\n"
    assert ("output.artifacts", "/ckpt/final") in found(text)
    assert ("request.checkpoint_location", "/ckpt/final") not in found(text)
    # saving along the way keeps it the checkpoints' place
    text = "deepspeed --module x.train --save_path /ckpt/run --save_steps 100\n"
    assert ("output.artifacts", "/ckpt/run") not in found(text)


def test_a_package_installed_from_git_is_the_code_when_the_run_starts_its_module():
    task = (
        "setup: |\n  pip install git+https://github.com/northwind/TrainKit.git@abc123\n"
        "run: |\n  deepspeed --module trainkit.cli.train_dpo --bf16\n"
    )
    assert sky_description(task)["work"]["code"] == [
        "https://github.com/northwind/TrainKit.git@abc123"
    ]
    # a library installed from git, the run starting another program: not the job's code
    task = (
        "setup: |\n  pip install git+https://github.com/northwind/helpers.git\n"
        "run: |\n  python train.py\n"
    )
    assert "code" not in (sky_description(task).get("work") or {})
    # at no ref, the package is whatever the repository holds that day: a library installed
    task = (
        'setup: |\n  pip list | grep vllm || pip install "git+https://github.com/org/vllm.git"\n'
        "run: |\n  python -m vllm.entrypoints.openai.api_server --port 8000\n"
    )
    assert "code" not in (sky_description(task).get("work") or {})
    # nor at a branch, which moves as the repository does (only a tag, version or commit pins)
    for ref in ("main", "master", "dev", "HEAD"):
        task = (
            f"setup: |\n  pip install git+https://github.com/org/vllm.git@{ref}\n"
            "run: |\n  python -m vllm.entrypoints.openai.api_server --port 8000\n"
        )
        assert "code" not in (sky_description(task).get("work") or {})
    # the code's source is said as the install it came from, not a clone
    task = (
        "setup: |\n  pip install git+https://github.com/northwind/TrainKit.git@v1.2\n"
        "run: |\n  deepspeed --module trainkit.cli.train_dpo --bf16\n"
    )
    (result,) = jobformat.import_text(task.encode(), filename="task.yaml")
    (note,) = [n for n in result.notes if n.startswith("work.code")]
    assert "(read from `pip install git+https://github.com/northwind/TrainKit.git@v1.2`" in note
    # the pattern names a whole word: anchored at its start, a search is a match there
    assert commands.PIP_GIT.search("a" * 1000 + "@") is None
    assert commands.PIP_GIT.search("x git+https://h/r.git@v1") is None
    assert commands.PIP_GIT.search("r @ git+https://h/r.git@v1").group(2) == "v1"
