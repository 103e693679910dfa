"""SkyPilot task files are read as SkyPilot reads them (the SkyPilot YAML reference,
sky/resources.py). Each file is in fixtures/imports/skypilot/ with its expected facts."""

from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from jobs import jobformat
from jobs.models import JobDescription

SKYPILOT = Path(__file__).parent / "fixtures" / "imports" / "skypilot"


def one(name):
    [result] = jobformat.import_text((SKYPILOT / name).read_bytes(), filename=name)
    return result


def test_gpus_is_another_name_for_accelerators():
    request = one("gpus_alias.yaml").description.request
    assert request.no_accelerators is None
    assert [(a.type, a.count) for a in request.accelerators] == [("H100", 8), ("H200", 8)]
    assert request.nodes == 2


def test_sections_written_as_lists_are_named_and_the_rest_is_read():
    result = one("sections_as_lists.yaml")
    assert result.description.request.accelerators[0].type == "A10G"
    assert result.description.data.inputs is None
    assert [n.split(":")[0] for n in result.notes if "written as a list" in n] == [
        "file_mounts",
        "inputs",
    ]


def test_a_list_shaped_file_imports_from_the_page_without_a_python_error(
    client_for, team_a, a_member
):
    upload = SimpleUploadedFile("eval.yaml", (SKYPILOT / "sections_as_lists.yaml").read_bytes())
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "file": upload, "source_format": "auto"}
    )
    job = JobDescription.objects.get()
    assert response["Location"] == reverse("job_imported", args=[job.pk])
    assert job.data["request"]["accelerators"] == [{"type": "A10G", "count": 1}]


def test_memory_and_disk_sizes_are_in_skypilots_binary_units():
    result = one("memory_disk_units.yaml")
    assert result.description.request.memory_per_node.bytes == 1024 * 2**20  # 1024MB
    assert result.description.data.scratch.bytes == 100 * 2**30  # 100GB
    [bare] = jobformat.import_text("resources:\n  memory: 32+\n  disk_size: 2TB\nrun: x\n")
    assert bare.description.request.memory_per_node.text == "32 GiB"
    assert bare.description.data.scratch.text == "2 TiB"
    assert "resources.memory 32+: at least 32 GiB." in bare.notes


def test_use_spot_on_one_choice_only_is_not_a_preemptible_job():
    result = one("spot_some_choices.yaml")
    assert result.description.request.preemptible is None
    assert "use_spot is true for some resource choices only." in result.notes


def test_a_run_that_is_not_script_text_is_named():
    result = one("run_as_list.yaml")
    assert result.description.work.command is None
    assert any(n.startswith("run: written as a list") for n in result.notes)


def test_credentials_are_named_by_whole_words():
    from jobs.jobformat.skypilot import secret_name

    for name in ("HF_TOKEN", "OSN_KEY_ID", "AWS_SECRET_ACCESS_KEY", "GITHUB_PAT", "hfToken"):
        assert secret_name(name), name
    for name in ("TOKENIZER_NAME", "tokenizer_path", "MAX_NEW_TOKENS", "S3_KEY_PREFIX", "PATH"):
        assert not secret_name(name), name


def test_general_purpose_instance_types_have_no_accelerators_and_gpu_families_are_not_guessed():
    from jobs.jobformat.instances import is_cpu_instance

    for cpu in ("VM.Standard.E4.Flex", "c5.4xlarge", "n2-standard-16", "m6i.8xlarge"):
        assert is_cpu_instance(cpu), cpu
    for gpu in ("p4d.24xlarge", "g5.xlarge", "a2-highgpu-1g", "a3-highgpu-8g", "g2-standard-8"):
        assert not is_cpu_instance(gpu), gpu
    for gpu in ("Standard_ND96asr_v4", "BM.GPU.H100.8", "VM.GPU.A10.1", "inf2.xlarge"):
        assert not is_cpu_instance(gpu), gpu


def test_a_mount_gets_a_direction_from_what_the_job_does_not_from_its_name():
    from jobs.jobformat.mounts import Use, classify

    script = "ls /ref\nOUT=/res\npython run.py out.dir=/x --dirs /outputs /data\ncp a $OUT/\n"
    assert classify("/outputs", "s3://b", script=script).use == Use.UNCLEAR
    assert classify("/data", "s3://b", script=script).use == Use.UNCLEAR
    assert classify("/checkpoints", "s3://b", script=script).use == Use.UNCLEAR
    assert classify("/ref", "s3://b", script=script).use == Use.READ
    assert classify("/res", "s3://b", script=script).use == Use.WRITTEN
    # A new bucket holds only what the job writes; one named for checkpoints is where they go.
    assert classify("/images", "", script=script, new_bucket=True).use == Use.WRITTEN
    assert classify("/ckpt", "", script=script, new_bucket=True).use == Use.CHECKPOINT
    # A copy can only be read; local files are code unless they are data or a results folder.
    assert classify("/d", "gs://b/f.tar", copied=True).use == Use.READ
    assert classify("/app", "./src", copied=True).use == Use.CODE
    assert classify("~/outputs", "./outputs", copied=True).use == Use.UNCLEAR


def test_a_mount_handed_to_the_program_as_its_checkpoint_folder_is_where_they_go():
    text = (
        "resources:\n  accelerators: L4:1\n"
        "envs:\n  CHECKPOINT_DIR: /app/ckpt\n  MODEL_WEIGHTS_PATH: /app/weights\n"
        "file_mounts:\n  /app/ckpt:\n    source: gs://lake-ckpt\n    mode: MOUNT_CACHED\n"
        "  /app/weights:\n    source: gs://lake-weights\n"
        "run: python -m lake.train_flow --epochs 5\n"
    )
    (result,) = jobformat.import_text(text.encode(), filename="task.yaml")
    assert result.description.request.checkpoint_location == "gs://lake-ckpt"
    # A variable naming a path (one file, as often loaded) says nothing of the mount.
    assert result.description.data.unclassified == ["/app/weights -> gs://lake-weights"]


def test_the_folder_a_run_changes_into_and_starts_its_program_from_is_the_code():
    run = "run: |\n  cd /mnt/shared/ana\n  source venv/bin/activate\n  cd vae-lab/\n"
    run += "  torchrun --nproc_per_node=8 train.py --config_path configs/a.yml\n"
    (result,) = jobformat.import_text(
        f"resources:\n  accelerators: H100:8\n{run}".encode(), filename="t.yaml"
    )
    assert result.description.work.code == ["/mnt/shared/ana/vae-lab"]
    # Not with a workdir (the code), nor in a container's own folder, nor a mounted folder.
    for head in (
        "workdir: .\n",
        "resources:\n  image_id: docker:acme/lab:1\n",
        "file_mounts:\n  /mnt/shared: s3://lake-shared\n",
    ):
        (result,) = jobformat.import_text(f"{head}{run}".encode(), filename="t.yaml")
        assert result.description.work.code != ["/mnt/shared/ana/vae-lab"], head
    text = "run: |\n  cd /app\n  python scripts/train.py\n"
    (result,) = jobformat.import_text(text.encode(), filename="t.yaml")
    assert not result.description.work.code


def test_dynamic_node_set_is_elastic_not_a_gang():
    result = one("dynamic_node_set.yaml")
    assert result.description.work.shape is None
    assert result.description.request.min_nodes == 2
    assert result.description.request.less_compute == "fewer_nodes"


def test_slurm_time_in_config_is_the_maximum():
    request = one("slurm_config.yaml").description.request
    # Slurm's D-HH:MM:SS reads the same in the format: kept as the file wrote it.
    assert request.maximum.text == "1-12:00:00" and request.maximum.seconds == 36 * 3600


def test_declarations_are_numbered_in_file_order_and_settings_keep_their_value():
    text = "file_mounts:\n  /app: ./app\nworkdir: .\npriority: 5\nrun: python app/main.py\n"
    [result] = jobformat.import_text(text)
    assert result.description.work.code == ["./app", "."]
    assert any(n.startswith("priority 5:") for n in result.notes)


def test_overrides_after_a_command_are_evidence_and_a_shell_assignment_is_not():
    from jobs.jobformat.mounts import Use, classify

    script = (
        "out_dir=/outputs\npython train.py \\\n  data.train_files=/data/train.parquet \\\n"
        "  data.cache_dir=/cache \\\n  trainer.output_dir=/res\n"
    )
    assert classify("/outputs", "s3://a", script=script).use == Use.UNCLEAR
    assert classify("/data", "s3://b", script=script).use == Use.READ
    assert classify("/cache", "s3://c", script=script).use == Use.UNCLEAR
    assert classify("/res", "s3://d", script=script).use == Use.WRITTEN


def test_a_bucket_named_only_in_envs_is_read_on_the_store_the_envs_name():
    text = (
        "resources:\n  accelerators: L4:1\n"
        "run: python -m cog.server.http\n"
        "envs:\n"
        "  AWS_ENDPOINT_URL_S3: https://fly.storage.tigris.dev\n"
        "  MODEL_BUCKET_NAME: seg-weights\n"
        "  RESULTS_BUCKET: s3://northwind-results\n"
        "  PUBLIC_BUCKET_NAME: fill-me-in\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    data, output = result.description.data, result.description.output
    assert [i.location for i in data.inputs] == ["https://fly.storage.tigris.dev/seg-weights"]
    assert [a.destination for a in output.artifacts] == ["s3://northwind-results"]
    # With no store named, the bucket is a note, not a guessed s3://.
    [result] = jobformat.import_text(
        b"resources:\n  cpus: 2\nrun: python x.py\nenvs:\n  DATA_BUCKET: clips\n", filename="s.yaml"
    )
    assert result.description.data.inputs is None
    assert any("DATA_BUCKET: clips" in note for note in result.notes)


def test_a_web_app_that_opens_a_port_and_runs_in_the_foreground_serves():
    app = (
        "resources:\n  cpus: 2\n  ports: [8000]\n"
        "setup: pip install fastapi uvicorn pandas\n"
        "run: python scripts/monitor.py --metrics-dir /output/metrics\n"
    )
    [result] = jobformat.import_text(app.encode(), filename="monitor.yaml")
    assert result.description.realtime.serves_requests is True
    # A port alone (a Ray dashboard) or a program started in the background says nothing.
    for text in (
        app.replace("fastapi uvicorn ", ""),
        app.replace("--metrics-dir /output/metrics", "&"),
    ):
        [result] = jobformat.import_text(text.encode(), filename="batch.yaml")
        assert result.description.realtime.serves_requests is None


def test_a_task_that_ends_in_a_server_subcommand_or_its_own_app_on_an_open_port_serves():
    def serves(run, resources="  cpus: 4\n  ports: 7860\n"):
        text = f"resources:\n{resources}run: |\n" + "".join(f"  {x}\n" for x in run.splitlines())
        [result] = jobformat.import_text(text.encode(), filename="task.yaml")
        realtime = result.description.realtime
        if realtime.serves_requests:
            assert realtime.finishes_on_its_own is False
            assert "not_a_network_job" in {issue.code for issue in result.issues}
        return realtime.serves_requests is True

    # Any program's `serve` subcommand left in the foreground, with or without a port open.
    assert serves("./bin/notes-hub serve --bind 0.0.0.0:7860 \\\n  --workers 2")
    assert serves("mkdocs serve", resources="  cpus: 1\n")
    # A task that opens a port and ends in its app, a module or a file, or a program it tells
    # which port to listen on.
    assert serves("cd viewer && python ui/app.py")
    assert serves("python -u -m viewer.ui.app_gallery")
    assert serves("python launch.py --server-port 7860")
    # Batch: the same app with no port open, a server started in the background for a client
    # that ends the job, a client given the server's port, training with a TensorBoard port.
    assert not serves("cd viewer && python ui/app.py", resources="  cpus: 4\n")
    assert not serves("./bin/notes-hub serve &\npython probe.py\nkill %1")
    assert not serves("./bin/notes-hub serve --port 7860 &\npython probe.py --port 7860")
    assert not serves("tensorboard --logdir runs --port 7860 &\npython train.py --epochs 3")
    assert not serves("python tools/serve_model_export.py --mode serve", resources="  cpus: 1\n")


def test_a_named_bucket_a_service_uses_is_what_it_answers_from():
    text = (
        "resources:\n  cpus: 2\n  ports: [8000]\n"
        "file_mounts:\n  /output:\n    name: sky-embeddings\n    store: s3\n    mode: MOUNT\n"
        "setup: pip install fastapi uvicorn\n"
        "run: python scripts/monitor.py --metrics-dir /output/metrics\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="monitor.yaml")
    assert [i.location for i in result.description.data.inputs] == ["s3://sky-embeddings"]
    assert result.description.output.artifacts is None
    # A batch task given the same new bucket writes into it.
    batch = text.replace("  ports: [8000]\n", "")
    [result] = jobformat.import_text(batch.encode(), filename="batch.yaml")
    assert [a.destination for a in result.description.output.artifacts] == ["s3://sky-embeddings"]


def test_a_services_store_in_a_named_bucket_is_what_it_answers_from():
    text = (
        "service:\n  replicas: 1\n  readiness_probe: /health\n"
        "resources:\n  accelerators: L4:1\n"
        "file_mounts:\n  /vectordb:\n    name: rag-db\n    mode: MOUNT\n"
        "run: python serve_rag.py --persist-dir /vectordb/chroma --port 8000\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="rag.yaml")
    assert [i.location for i in result.description.data.inputs] == ["bucket://rag-db"]
    # A batch job building the store writes it.
    batch = text.replace("service:\n  replicas: 1\n  readiness_probe: /health\n", "")
    batch = batch.replace("serve_rag.py", "build_db.py").replace(" --port 8000", "")
    [result] = jobformat.import_text(batch.encode(), filename="build.yaml")
    assert [a.destination for a in result.description.output.artifacts] == ["bucket://rag-db"]


def test_checkpoints_saved_under_a_written_bucket_mount_are_in_that_bucket():
    text = (
        "resources:\n  accelerators: A100:8\nfile_mounts:\n  /artifacts:\n"
        "    name: team-artifacts\n    mode: MOUNT\nrun: |\n"
        "  torchrun train.py --output_dir /artifacts/run7 --save_steps 1200\n"
    )
    [result] = jobformat.import_text(text)
    assert result.description.request.checkpoint_location == "bucket://team-artifacts"
    assert [a.destination for a in result.description.output.artifacts] == [
        "bucket://team-artifacts"
    ]
    assert any("under the mount of bucket://team-artifacts" in n for n in result.notes)


def test_a_hub_model_or_dataset_named_in_envs_is_what_the_program_loads():
    def inputs(envs, run="python serve.py"):
        text = f"resources:\n  accelerators: A100:1\nenvs:\n{envs}run: |\n  {run}\n"
        [result] = jobformat.import_text(text)
        data = result.description.data
        return [i.location for i in data.inputs] if data and data.inputs else []

    assert inputs("  MODEL_NAME: org/model-7b\n  DATASET: org/clips\n") == [
        "hf://org/model-7b",
        "hf://datasets/org/clips",
    ]
    # stated once when the commands use it too
    assert inputs("  MODEL_ID: org/m\n", run="vllm serve $MODEL_ID") == ["hf://org/m"]
    # a variable of the server's options the envs leave unset is not the model
    assert inputs("  MODEL_ID: org/m\n", run="vllm serve $VLLM_FLAGS $MODEL_ID") == ["hf://org/m"]
    # a model the job makes, or a path inside a model bucket the envs name, is no Hub input
    assert inputs("  HF_UPLOAD_MODEL_NAME: org/tuned\n") == []
    assert inputs("  MODEL_NAME: your-org/your-model\n") == []  # a placeholder
    assert inputs("  MODEL_PATH: org/m\n  MODEL_BUCKET_NAME: weights\n") == []
    # a list of models the server loads, each of them read
    assert inputs("  SERVER_MODEL_ID: org/embed-s;org/rerank-xs;\n", run="embed-server v2") == [
        "hf://org/embed-s",
        "hf://org/rerank-xs",
    ]


def test_setup_fetched_from_a_repository_whose_folder_the_task_runs_from_names_its_code():
    text = (
        "resources:\n  cpus: 2\n"
        'setup: bash <(curl -fsSL "https://raw.githubusercontent.com/${REPO}/${REF}/ops/setup.sh")\n'
        "run: /workspace/seg/ops/run.sh\n"
        "envs:\n  REPO: northwind/seg\n  REF: v2\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.code == ["https://github.com/northwind/seg@v2"]
    # An installer fetched from another project's repository is not the task's code.
    other = text.replace("/workspace/seg/", "/workspace/app/")
    [result] = jobformat.import_text(other.encode(), filename="sky.yaml")
    assert not result.description.work.code


def test_a_program_at_the_place_its_fetched_setup_comes_from_is_that_repositorys_code():
    text = (
        "resources:\n  cpus: 2\n"
        'setup: bash <(curl -fsSL "https://raw.githubusercontent.com/${REPO}/${REF}/ops/sky/setup.sh")\n'
        "run: uv run ./ops/sky/run.py\n"
        "envs:\n  REPO: northwind/seg\n  REF: v2\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.code == ["https://github.com/northwind/seg@v2"]
    # A program elsewhere in the working folder is not shown to come from that repository.
    other = text.replace("./ops/sky/run.py", "./tools/run.py")
    [result] = jobformat.import_text(other.encode(), filename="sky.yaml")
    assert not result.description.work.code


def test_a_dotenv_file_sent_to_the_node_is_a_credential_and_shell_settings_are_no_code():
    text = (
        "workdir: .\n"
        "file_mounts:\n"
        "  /srv/app/.env: .env\n"
        "  /srv/app/.env.example: .env.example\n"
        "  ~/.bashrc: ~/.bashrc\n"
        "  ~/.tmux.conf: ~/.tmux.conf\n"
        "secrets:\n  SLACK_TOKEN: null\n"
        "run: python -m app\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    work = result.description.work
    # Named by the file the user supplies, ahead of the secrets: section.
    assert work.credentials == [".env", "SLACK_TOKEN"]
    # A template of a dotenv file holds no secret: it is sent like the rest of the code.
    assert work.code == [".", ".env.example"]
    assert [n.split(":")[0] for n in result.notes if "user's own settings" in n] == [
        "file_mounts ~/.bashrc",
        "file_mounts ~/.tmux.conf",
    ]


def test_an_ssh_clients_settings_are_the_users_own_and_the_keys_beside_them_credentials():
    text = (
        "file_mounts:\n"
        "  ~/.ssh/config: ./dev_ssh_config\n"
        "  $HOME/.ssh/known_hosts: ./hosts_seen\n"
        "  ~/.ssh/id_ed25519: ~/.ssh/id_ed25519\n"
        "  /root/.zshrc: ./zshrc\n"
        "  ~/.ssh: ~/.ssh\n"
        "  /opt/deploy.pem: ./deploy.pem\n"
        "run: python report.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.credentials == ["~/.ssh/id_ed25519", "~/.ssh", "./deploy.pem"]
    assert [n.split(":")[0] for n in result.notes if "user's own settings" in n] == [
        "file_mounts ~/.ssh/config",
        "file_mounts $HOME/.ssh/known_hosts",
        "file_mounts /root/.zshrc",
    ]
    # A key file sent under a settings name is still a key.
    [result] = jobformat.import_text(
        text.replace("./dev_ssh_config", "~/.ssh/id_rsa").encode(), filename="sky.yaml"
    )
    assert "~/.ssh/id_rsa" in result.description.work.credentials


def test_an_image_id_is_a_container_on_container_clouds_or_in_a_registrys_shape():
    def image(resources):
        [result] = jobformat.import_text(f"resources:\n{resources}run: python x.py\n".encode())
        return result.description.work.image, result.notes

    assert image("  cloud: runpod\n  image_id: lab/trainer\n")[0] == "lab/trainer"
    assert image("  infra: k8s/ctx-a\n  image_id: ubuntu:22.04\n")[0] == "ubuntu:22.04"
    assert image("  image_id: ghcr.io/lab/trainer:v3\n")[0] == "ghcr.io/lab/trainer:v3"
    assert image("  image_id: docker:lab/trainer:v3\n")[0] == "lab/trainer:v3"
    # Machine images stay machine images: no tag after a path, or a cloud's own form.
    for machine in (
        "ami-0abc1234def567890",
        "projects/lab-images/global/images/base-v20250101",
        "skypilot:gpu-ubuntu-2204",
        "ocid1.image.oc1.iad.aaaa",
    ):
        found, notes = image(f"  image_id: {machine}\n")
        assert found is None, machine
        assert f"resources.image_id {machine}: a machine image, not a container." in notes


def test_a_local_folder_uploaded_into_a_named_bucket_is_read_from_that_bucket():
    text = (
        "file_mounts:\n"
        "  /dataset:\n    name: lab-scans\n    source: ./scans\n    store: gcs\n    mode: COPY\n"
        "  /refs:\n    name: lab-refs\n    source: ~/ref_data\n"
        "run: python align.py --scans /dataset --reference /refs/hg38.fa\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    inputs = [(i.name, i.location, i.access) for i in result.description.data.inputs]
    # With no store: SkyPilot picks one from the cloud, written bucket:// as elsewhere.
    assert inputs == [
        ("/dataset", "gs://lab-scans", "copy_before_start"),
        ("/refs", "bucket://lab-refs", "stream"),
    ]
    assert "file_mounts /dataset: ./scans is uploaded to gs://lab-scans before the job starts." in (
        result.notes
    )


def test_weights_copied_under_the_workdir_are_an_input_and_the_scripts_beside_them_code():
    text = (
        "workdir: .\n"
        "file_mounts:\n"
        "  ~/sky_workdir/ckpt/big: /scratch/owl/big\n"
        "  ~/sky_workdir/tok/vocab.model: /scratch/owl/tokenizer/vocab.model\n"
        "  ~/sky_workdir/head.safetensors: ./head.safetensors\n"
        "  ~/sky_workdir/tools: ./tools\n"
        "run: python ~/sky_workdir/tools/chat.py --ckpt_dir ~/sky_workdir/ckpt/big\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    description = result.description
    # Loaded by the program, not run: copied before the job starts, wherever they land.
    assert [(i.name, i.location, i.access) for i in description.data.inputs] == [
        ("~/sky_workdir/ckpt/big", "/scratch/owl/big", "copy_before_start"),
        (
            "~/sky_workdir/tok/vocab.model",
            "/scratch/owl/tokenizer/vocab.model",
            "copy_before_start",
        ),
        ("~/sky_workdir/head.safetensors", "./head.safetensors", "copy_before_start"),
    ]
    assert description.work.code == [".", "./tools"]


def test_a_chat_served_in_a_web_terminal_is_not_a_network_job():
    text = (
        "setup: |\n  curl -L -o ttyd https://example.org/ttyd && sudo mv ttyd /usr/bin/ttyd\n"
        'run: |\n  cd app\n  ttyd bash -c "python chat.py --weights ~/w"\n'
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    realtime = result.description.realtime
    assert (realtime.serves_requests, realtime.finishes_on_its_own) == (True, False)


def test_a_gpu_model_in_lower_case_is_the_catalogs_and_tpu_names_stay_as_written():
    text = (
        "resources:\n  any_of:\n    - accelerators: h100:8\n    - accelerators: a100-80gb:8\n"
        "    - accelerators: tpu-v5e-8\n    - accelerators: A10g:4\nrun: python fit.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    types = [a.type for a in result.description.request.accelerators]
    assert types == ["H100", "A100-80GB", "tpu-v5e-8", "A10g"]


def test_a_task_whose_commands_use_gpus_is_not_said_to_have_none():
    # No accelerators in resources, yet the run checks CUDA: the GPUs come from elsewhere
    # (an existing cluster, --gpus on the command line), so neither is said.
    [checked] = jobformat.import_text(
        'run: |\n  python -c "import torch; assert torch.cuda.is_available()"\n'
        "  bash scripts/train.sh\n"
    )
    request = checked.description.request
    assert request.no_accelerators is None and not request.accelerators
    assert any(n.startswith("No accelerators in resources, yet") for n in checked.notes)
    [smi] = jobformat.import_text("setup: pip install -e .\nrun: |\n  nvidia-smi\n  make train\n")
    assert smi.description.request.no_accelerators is None
    [launcher] = jobformat.import_text("run: torchrun --nproc_per_node=4 fit.py\n")
    assert launcher.description.request.no_accelerators is None
    assert any("use GPUs" in n for n in launcher.notes)


def test_tpu_work_without_accelerators_is_named_tpu_work_not_gpu_work():
    [tpu] = jobformat.import_text("run: |\n  pip install 'jax[tpu]'\n  python train.py\n")
    assert tpu.description.request.no_accelerators is None
    [note] = [n for n in tpu.notes if n.startswith("No accelerators in resources")]
    assert "use TPUs" in note and "say which TPUs" in note and "GPU" not in note


def test_a_command_that_turns_gpus_off_or_uses_none_has_no_accelerators():
    for run in ("toolkit train --gpu -1 --config c.yml", "python fit.py --num_gpus 0", "make all"):
        [result] = jobformat.import_text(f"resources:\n  cpus: 4\nrun: {run}\n")
        assert result.description.request.no_accelerators is True, run


def test_an_app_asked_for_a_public_link_is_a_server_without_ports():
    # No `ports:` in resources: the app's public link (Gradio's --share) is how it is reached.
    [shared] = jobformat.import_text(
        "run: |\n  cd tool\n  python ui/main.py \\\n    --model small \\\n    --share\n"
    )
    realtime = shared.description.realtime
    assert realtime.serves_requests is True and realtime.finishes_on_its_own is False
    assert "not_a_network_job" in {i.code for i in shared.issues}
    [launched] = jobformat.import_text(
        "run: python -c 'import ui; ui.build().launch(share=True)'\n"
    )
    assert launched.description.realtime.serves_requests is True


def test_a_public_link_on_an_earlier_step_or_another_option_is_not_a_server():
    [earlier] = jobformat.import_text("run: |\n  python prep.py --share\n  python fit.py\n")
    assert earlier.description.realtime is None or not earlier.description.realtime.serves_requests
    [other] = jobformat.import_text("run: python fit.py --shared-memory 8G --share_weights\n")
    assert other.description.realtime is None or not other.description.realtime.serves_requests


def test_an_existing_bucket_the_commands_only_read_is_an_input_in_every_mode():
    for mode, access in (
        ("MOUNT_CACHED", "cached_mount"),
        ("MOUNT", "stream"),
        ("COPY", "copy_before_start"),
    ):
        [result] = jobformat.import_text(
            f"file_mounts:\n  /refs:\n    source: s3://lab-reference\n    mode: {mode}\n"
            "setup: ls /refs\nrun: python align.py --input /refs/genome\n"
        )
        [item] = result.description.data.inputs
        assert (item.location, item.access) == ("s3://lab-reference", access), mode
        assert result.description.data.unclassified is None
    # Nothing in the commands touches it (a message is not a read): the name says nothing.
    [unsaid] = jobformat.import_text(
        "file_mounts:\n  /refs:\n    source: s3://lab-reference\n    mode: MOUNT_CACHED\n"
        'setup: echo "references ready in /refs"\nrun: python align.py\n'
    )
    assert unsaid.description.data.inputs is None
    assert unsaid.description.data.unclassified == ["/refs -> s3://lab-reference"]


def test_a_copy_mounted_at_the_nodes_models_folder_is_read_not_code():
    text = (
        "file_mounts:\n  /models:\n    source: ./local-llms\n    mode: COPY\n"
        "run: llama-run --file /models/tiny.gguf\n"
    )
    [result] = jobformat.import_text(text)
    assert result.description.work.code is None
    assert [i.location for i in result.description.data.inputs] == ["./local-llms"]


def test_spot_recovery_is_noted_under_the_name_the_file_gives():
    text = "resources:\n  use_spot: true\n  spot_recovery: FAILOVER\nrun: python a.py\n"
    [result] = jobformat.import_text(text)
    assert any(n.startswith("spot_recovery (job_recovery): FAILOVER") for n in result.notes)


def test_gits_credential_store_sent_to_the_node_is_a_credential():
    text = (
        "workdir: .\n"
        "file_mounts:\n"
        "  ~/.git-credentials: ~/.git-credentials\n"
        "run: python sync_results.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.credentials == ["~/.git-credentials"]
    assert result.description.work.code == ["."]


def test_an_uploaders_repository_is_written_and_read_only_where_another_step_names_it():
    text = (
        "envs:\n  HF_DATASET: harbor-lab/tide-gauges\n"
        "run: |\n"
        "  python -m gauges.predict --out-dir out/run1\n"
        '  python -m gauges.upload out/run1 --repo "$HF_DATASET"\n'
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    # The env names the uploader's target only: written, not read (out/run1 is staging).
    assert [a.destination for a in result.description.output.artifacts] == [
        "hf://datasets/harbor-lab/tide-gauges"
    ]
    assert "hf://datasets/harbor-lab/tide-gauges" not in [
        i.location for i in result.description.data.inputs or []
    ]
    # A step that fetches from the same repository reads it.
    fetched = text.replace(
        "  python -m gauges.predict",
        '  python -m gauges.fetch --repo "$HF_DATASET"\n  python -m gauges.predict',
    )
    [result] = jobformat.import_text(fetched.encode(), filename="sky.yaml")
    assert "hf://datasets/harbor-lab/tide-gauges" in [
        i.location for i in result.description.data.inputs
    ]


def sky(text):
    [result] = jobformat.import_text(text.encode(), filename="task.yaml")
    return result


def test_a_pods_active_deadline_is_the_maximum():
    text = (
        "resources:\n  accelerators: H100:2\nrun: python fit.py\n"
        "config:\n  kubernetes:\n    pod_config:\n      spec:\n        activeDeadlineSeconds: 7200\n"
    )
    assert sky(text).description.request.maximum.seconds == 7200


def test_a_development_box_with_no_run_reads_nothing_and_its_clone_is_no_code():
    text = (
        "resources:\n  accelerators: tpu-v5e-8\n"
        "setup: |\n  rm -rf tide-model\n  git clone https://github.com/harbor-lab/tide-model.git\n"
        "  cd tide-model && pip install -e .\n  pkill -f 'tide.serve|tide.worker' || true\n"
    )
    description = sky(text).description
    assert description.data.no_inputs is True
    assert description.work.code is None


def test_a_named_pipeline_of_one_task_names_its_stage():
    text = "name: tides\n---\nname: fit\nresources:\n  cpus: 2\nrun: echo fitting\n"
    assert sky(text).description.name == "tides/fit"


def test_tpu_runtime_settings_point_to_accelerators_and_a_variable_names_none():
    hosts = "num_nodes: 2\nrun: |\n  export TPU_WORKER_ID=$SKYPILOT_NODE_RANK\n  python fit.py\n"
    request = sky(hosts).description.request
    assert request.no_accelerators is None and not request.accelerators
    given = "resources:\n  accelerators: $TIDE_TPU\nrun: python fit.py\n"
    result = sky(given)
    assert result.description.request.no_accelerators is None
    assert not result.description.request.accelerators
    assert any(n.startswith("resources.accelerators $TIDE_TPU") for n in result.notes)


def test_the_registry_login_envs_are_one_credential_set():
    text = (
        "resources:\n  image_id: docker:tides/fit:1\nrun: python fit.py\n"
        "envs:\n  SKYPILOT_DOCKER_USERNAME: AWS\n  SKYPILOT_DOCKER_PASSWORD: ''\n"
        "  SKYPILOT_DOCKER_SERVER: 123.dkr.ecr.us-east-1.amazonaws.com\n"
    )
    assert sky(text).description.work.credentials == [
        "SKYPILOT_DOCKER_USERNAME",
        "SKYPILOT_DOCKER_PASSWORD",
        "SKYPILOT_DOCKER_SERVER",
    ]


def test_a_trackers_settings_folder_is_the_users_own_not_code():
    text = (
        "workdir: .\n"
        "file_mounts:\n  ~/.config/wandb: ~/.config/wandb\n  ~/.netrc: ~/.netrc\n"
        "run: python fit.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.code == ["."]
    assert result.description.work.credentials == ["~/.netrc"]
    assert any(n.startswith("file_mounts ~/.config/wandb") for n in result.notes)


def test_checkpoints_a_server_loads_as_an_adapter_are_read_not_written():
    from jobs.jobformat.mounts import Use, classify

    serve = "vllm serve org/base --enable-lora --lora-modules mine=/ckpts --port 8000\n"
    verdict = classify("/ckpts", "bucket://b", script=serve, new_bucket=True, serves=True)
    assert verdict.use == Use.READ
    # a trainer that serves at the end still keeps its checkpoints there
    train = "python train.py --save_dir /ckpts\nvllm serve /ckpts/final --port 8000\n"
    verdict = classify("/ckpts", "bucket://b", script=train, new_bucket=True, serves=True)
    assert verdict.use == Use.CHECKPOINT


def test_a_mount_source_left_blank_in_a_template_names_nothing():
    text = (
        "envs:\n  SRC: <your-bucket>\nfile_mounts:\n  /adapters:\n    source: $SRC\n"
        "resources:\n  accelerators: L4:1\nrun: python serve.py --adapters /adapters\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    data = result.description.to_data()
    stated = str(data.get("data", {})) + str(data.get("work", {}).get("code", ""))
    assert "<your-bucket>" not in stated
    assert any("template's blank" in note for note in result.notes)


def test_benchmark_candidates_are_choices_in_the_order_written():
    text = (
        "resources:\n  cloud: gcp\n  candidates:\n  - {accelerators: L4}\n"
        "  - {accelerators: A10G:2}\nrun: python fit.py\n"
    )
    result = sky(text)
    request = result.description.request
    assert [(a.type, a.count) for a in request.accelerators] == [("L4", 1), ("A10G", 2)]
    assert request.no_accelerators is None
    assert any(n.startswith("resources.candidates") for n in result.notes)


def test_skypilots_own_controls_read_nothing_unless_a_server_is_left_running():
    cycle = "run: |\n  sky api start\n  sky api status\n  sky launch --dryrun -y\n  sky api stop\n"
    assert sky(cycle).description.data.no_inputs is True
    # the API server started and left up is the job's work: what it serves is not shown
    left = "run: |\n  sky api start\n"
    assert sky(left).description.data.no_inputs is None
    # a real launch hands work to another task
    launch = "run: |\n  sky launch -y tides.yaml\n"
    assert sky(launch).description.data.no_inputs is None


def test_a_file_read_back_from_the_bucket_the_task_creates_is_no_input():
    text = (
        "file_mounts:\n  /bench:\n    name: tides-bench\n    mode: MOUNT\n"
        "run: |\n  fio --name=seq --directory=/bench/ > /bench/seq.json\n"
        "  aws s3 cp s3://tides-bench/seq.0.0 ~/\n"
    )
    data = sky(text).description.to_data().get("data") or {}
    assert "s3://tides-bench/seq.0.0" not in str(data.get("inputs"))
    # a bucket the task did not create is still read
    other = text.replace("s3://tides-bench/", "s3://tides-archive/")
    inputs = sky(other).description.to_data()["data"]["inputs"]
    assert {"location": "s3://tides-archive/seq.0.0"} in inputs


def test_ordered_choices_and_a_services_own_load_balancers_are_named():
    [result] = jobformat.import_text(
        "service:\n  readiness_probe: /health\n  replicas: 2\n"
        "  external_load_balancers:\n"
        "    - resources: {cloud: aws, region: us-east-2}\n"
        "    - resources: {cloud: aws, region: eu-central-1}\n"
        "resources:\n  accelerators: L4:1\n  ports: 8081\n"
        "  ordered:\n    - region: us-east-2\n    - region: eu-central-1\n"
        "run: python -m http.server 8081\n"
    )
    assert "resources.ordered: the choices are tried in the order written." in result.notes
    assert any(n.startswith("service.external_load_balancers: 2 more") for n in result.notes)
    assert result.description.request.accelerators[0].type == "L4"


def test_a_run_ending_in_a_program_given_the_port_the_task_opens_serves():
    text = "resources:\n  cpus: 2+\n  ports: 9002\nrun: python -m tools.lb --lb-port 9002\n"
    [result] = jobformat.import_text(text)
    assert result.description.realtime.serves_requests is True
    [batch] = jobformat.import_text(text.replace("ports: 9002", "ports: 8265"))
    assert batch.description.realtime.serves_requests is not True


def test_nebius_and_digitalocean_cpu_presets_have_no_accelerators():
    from jobs.jobformat.instances import is_cpu_instance

    for cpu in ("cpu-d3_32vcpu-128gb", "cpu-e2_4vcpu-16gb", "s-4vcpu-8gb"):
        assert is_cpu_instance(cpu), cpu
    for gpu in ("gpu-h100-sxm_8gpu-128vcpu-1600gb", "gpu-l40s-a_1gpu-8vcpu-32gb"):
        assert not is_cpu_instance(gpu), gpu


def test_cloud_cli_keys_are_credentials_and_the_aws_cli_settings_the_users_own():
    text = (
        "file_mounts:\n"
        "  ~/.azure: ~/.azure\n"
        "  ~/.aws/config: ~/.aws/config\n"
        "  ~/.aws/credentials: ~/.aws/credentials\n"
        "run: python sync.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert result.description.work.credentials == ["~/.azure", "~/.aws/credentials"]
    assert not result.description.work.code
    assert [n.split(":")[0] for n in result.notes if "user's own settings" in n] == [
        "file_mounts ~/.aws/config"
    ]


def test_a_task_with_no_commands_reads_no_model_its_envs_name():
    text = "envs:\n  MODEL_NAME: northwind/seg-7b\nresources:\n  accelerators: L4:1\n"
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    assert not result.description.data.inputs
    with_run = text + "run: python serve.py\n"
    [result] = jobformat.import_text(with_run.encode(), filename="sky.yaml")
    assert [i.location for i in result.description.data.inputs] == ["hf://northwind/seg-7b"]


def test_a_buckets_lifetime_set_in_a_mount_is_noted():
    text = (
        "file_mounts:\n"
        "  /taken:\n    source: s3://lab-existing\n    force_managed: true\n    mode: MOUNT\n"
        "  /scratch:\n    name: lab-tmp-bucket\n    persistent: false\n"
        "  /kept:\n    name: lab-kept\n    persistent: true\n"
        "run: ls /taken\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    lives = [n.split(" (")[0] for n in result.notes if "bucket" in n and " (" in n and ": " in n]
    lives = [n for n in lives if n.endswith(("force_managed", "persistent false"))]
    assert lives == ["file_mounts /taken: force_managed", "file_mounts /scratch: persistent false"]
    # (review) what the commands write into a bucket deleted with the cluster is no output
    written = text.replace("run: ls /taken\n", "run: python train.py --out /scratch/tmp\n")
    [result] = jobformat.import_text(written.encode(), filename="sky.yaml")
    assert [a.name for a in result.description.output.artifacts] == ["/kept"]
    assert any(n.startswith("file_mounts /scratch") and "temporary" in n for n in result.notes)


def test_a_key_that_looks_up_a_record_is_no_secret():
    from jobs.jobformat.skypilot import secret_name

    for name in ("ENV_KEY", "INPUT_KEY", "prompt_key", "LABEL_KEY", "DATASET_KEY"):
        assert not secret_name(name), name
    # KEY beside another secret word, or with no lookup word, stays a secret
    for name in ("ENV_SECRET_KEY", "INPUT_API_TOKEN", "OPENAI_KEY", "AZURE_PRIMARY_KEY"):
        assert secret_name(name), name


def test_dotenv_files_with_a_suffix_are_keys_and_their_templates_are_not():
    from jobs.jobformat.mounts import CREDENTIAL

    for path in ("~/.env_anthropic", ".env-prod", "~/.config/.env.global", "app/.env"):
        assert CREDENTIAL.search(path), path
    for path in (".env.example", ".env_example", "~/.envrc", "src/.environment.py"):
        assert not CREDENTIAL.search(path), path
    # (review) a template named by its last suffix after another
    for path in ("~/app/.env.local.example", ".env.dev.sample", "x/.env.prod.template"):
        assert not CREDENTIAL.search(path), path
    assert CREDENTIAL.search("~/app/.env.local.prod")


def test_a_variable_pointing_at_a_mounted_key_is_that_key():
    text = (
        "file_mounts:\n  /tmp/gcp-creds.json: credentials/gcp-service-account.json\n"
        "envs:\n  GOOGLE_APPLICATION_CREDENTIALS: /tmp/gcp-creds.json\n  WANDB_API_KEY: ''\n"
        "run: python train.py\n"
    )
    work = sky(text).description.to_data()["work"]
    assert work["credentials"] == ["credentials/gcp-service-account.json", "WANDB_API_KEY"]
    # pointing elsewhere, it is a secret of its own
    other = text.replace("GOOGLE_APPLICATION_CREDENTIALS: /tmp/gcp-creds.json",
                         "GOOGLE_APPLICATION_CREDENTIALS: /secrets/other.json")  # fmt: skip
    assert (
        "GOOGLE_APPLICATION_CREDENTIALS" in sky(other).description.to_data()["work"]["credentials"]
    )


def test_a_path_from_home_is_under_the_mount_named_with_a_tilde():
    text = (
        "file_mounts:\n  ~/llama: gs://llama-7b/llama-ckpt\n"
        "run: |\n  python convert.py --input_dir $HOME/llama --output_dir /out\n"
        "  python train.py --model ${HOME}/llama/7B\n"
    )
    inputs = sky(text).description.to_data()["data"]["inputs"]
    assert [i["location"] for i in inputs] == ["gs://llama-7b/llama-ckpt"]


def test_a_model_or_data_path_in_envs_the_commands_export_is_read():
    text = (
        "envs:\n  MODEL_PATH: /hai/models/Qwen3-8B-Base\n  LCB_DATA_DIR: /hai/data/lcb_v6\n"
        "  OUTPUT_DIR: /hai/out\n"
        'setup: |\n  test -f "$MODEL_PATH/config.json"\n'
        "run: |\n  export MODEL_PATH\n  export LCB_DATA_DIR\n  bash examples/run_section4.sh\n"
    )
    inputs = sky(text).description.to_data()["data"]["inputs"]
    assert [i["location"] for i in inputs] == ["/hai/models/Qwen3-8B-Base", "/hai/data/lcb_v6"]
    # not exported for the script: nothing is said of it
    quiet = text.replace("  export LCB_DATA_DIR\n", "")
    inputs = sky(quiet).description.to_data()["data"]["inputs"]
    assert [i["location"] for i in inputs] == ["/hai/models/Qwen3-8B-Base"]


def test_a_data_folder_in_envs_the_commands_make_is_staging():
    text = (
        "envs:\n  LOCAL_DATASET_ROOT: /wiki\n"
        "run: |\n  mkdir -p ${LOCAL_DATASET_ROOT}\n  cd ${LOCAL_DATASET_ROOT}\n"
        "  wget https://example.org/wiki.json.gz\n  python preprocess.py\n"
    )
    inputs = sky(text).description.to_data()["data"].get("inputs") or []
    assert "/wiki" not in [i["location"] for i in inputs]


def test_files_of_the_workdir_sent_to_their_place_in_it_are_the_workdir():
    # (seen-bg: scripts mounted one by one beside `workdir: .`; a dotenv among them stays a key)
    text = (
        "workdir: .\n"
        "file_mounts:\n"
        "  ~/sky_workdir/.env: ./.env\n"
        "  ~/sky_workdir/scripts/fetch_datasets.sh: ./scripts/fetch_datasets.sh\n"
        "  ~/sky_workdir/src/util/load.py: ./src/util/load.py\n"
        "  ~/sky_workdir/other/load.py: ./src/util/load.py\n"
        "run: bash scripts/fetch_datasets.sh && python src/util/load.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    work, data = result.description.work, result.description.data
    assert work.credentials == ["./.env"]
    # (a file sent to another place than its own in the workdir is still a thing of its own)
    assert work.code == [".", "./src/util/load.py"]
    assert not data.inputs


def test_a_mount_whose_bucket_a_variable_names_for_its_use_takes_that_direction():
    # (seen-bg: `source: $DATA_BUCKET` is read, `source: $OUTPUT_BUCKET` written, even with no
    # value in the file; a variable named for a bucket is not a folder of the launching machine)
    text = (
        "envs:\n  DATA_BUCKET: r2://tide-chunks\n  OUTPUT_BUCKET:\n"
        "file_mounts:\n"
        "  /data:\n    source: $DATA_BUCKET\n    mode: MOUNT\n"
        "  /out:\n    source: $OUTPUT_BUCKET\n    mode: MOUNT\n"
        "  /other:\n    source: $SCRATCH_BUCKET\n"
        "run: python worker.py\n"
    )
    [result] = jobformat.import_text(text.encode(), filename="sky.yaml")
    data, output = result.description.data, result.description.output
    assert [(i.name, i.location, i.access.value) for i in data.inputs] == [
        ("/data", "r2://tide-chunks", "stream")
    ]
    assert [(a.name, a.destination) for a in output.artifacts] == [("/out", "$OUTPUT_BUCKET")]
    assert data.unclassified == ["/other -> $SCRATCH_BUCKET"]
    assert not result.description.work.code


def test_an_exported_path_env_the_commands_copy_into_or_named_for_the_trained_model_is_no_input():
    # (review) staging a copy fills: the bucket it comes from is the input
    text = (
        "envs:\n  DATA_DIR: /tmp/data\n"
        "run: |\n  export DATA_DIR\n  aws s3 sync s3://my-bucket/train $DATA_DIR\n"
        "  python train.py\n"
    )
    inputs = sky(text).description.to_data()["data"]["inputs"]
    assert [i["location"] for i in inputs] == ["s3://my-bucket/train"]
    # a folder the program writes into, by the platform's name for it or by the commands
    for text in (
        "envs:\n  SM_MODEL_DIR: /opt/ml/model\nrun: |\n  export SM_MODEL_DIR\n  python train.py\n",
        "envs:\n  MODEL_DIR: /ckpt/run1\n"
        "run: |\n  export MODEL_DIR\n  python train.py > $MODEL_DIR/train.log\n",
    ):
        inputs = sky(text).description.to_data().get("data", {}).get("inputs") or []
        assert not [i for i in inputs if i["location"].startswith(("/opt", "/ckpt"))], text


def test_path_envs_are_matched_to_the_commands_in_one_pass():
    # (review) 3000 envs over a 100 KB run took 7 s: a pattern per env over the whole run (its
    # timing is portal.devtools.jobformat_bench's "path envs over a long run")
    envs = "".join(f"  M{i}_MODEL_PATH: /m/{i}\n" for i in range(3000))
    run = "".join(f"  echo line {i} mkdir -p x\n" for i in range(4000))
    text = f"envs:\n{envs}run: |\n  export M7_MODEL_PATH\n{run}"
    inputs = sky(text).description.to_data()["data"]["inputs"]
    assert [i["location"] for i in inputs] == ["/m/7"]


def test_a_bare_accelerator_count_asks_for_that_many_of_a_model_not_named():
    # (seen-br) `gpus: 1` on an SSH node pool: one GPU per node, its model left to ask
    for value in ("1", '"2"'):
        request = sky(f"resources:\n  gpus: {value}\nrun: python train.py\n").description.request
        assert [(a.type, a.count) for a in request.accelerators] == [(None, int(value.strip('"')))]
        assert request.no_accelerators is None
    # a name is still a name, and a count of none asks for nothing
    request = sky("resources:\n  accelerators: A100\nrun: python x.py\n").description.request
    assert [(a.type, a.count) for a in request.accelerators] == [("A100", 1)]
    request = sky("resources:\n  accelerators: 0\nrun: python x.py\n").description.request
    assert not request.accelerators


def test_a_bare_accelerator_count_beside_a_known_instance_is_of_its_model():
    # (seen-br) `accelerators: 4` on a g5.12xlarge: four A10G, the instance's GPUs
    text = "resources:\n  instance_type: g5.12xlarge\n  accelerators: {}\nrun: python t.py\n"
    result = sky(text.format(4))
    assert [(a.type, a.count) for a in result.description.request.accelerators] == [("A10G", 4)]
    # a count the instance does not have: the instance is what is rented, and it is said
    result = sky(text.format(2))
    assert [(a.type, a.count) for a in result.description.request.accelerators] == [("A10G", 4)]
    assert any("accelerators 2" in n and "4 × A10G" in n for n in result.notes)
    # an instance not in the catalogue leaves the count as written
    text = "resources:\n  instance_type: x9.big\n  accelerators: 4\nrun: python t.py\n"
    request = sky(text).description.request
    assert [(a.type, a.count) for a in request.accelerators] == [(None, 4)]


def test_a_notebook_or_package_fetched_in_setup_is_no_data_and_reads_nothing():
    # (seen-br) a development box: uv init/add, an example notebook fetched for the user,
    # nvidia-smi in the run
    text = (
        "resources:\n  accelerators: H200:1\n"
        "setup: |\n  pip install uv\n  mkdir ~/p && cd ~/p\n  uv init --python=3.13\n"
        "  uv add cartopy ipykernel\n"
        "  wget https://example.github.io/tool/_downloads/abc/01_demo.ipynb\n"
        "run: |\n  nvidia-smi\n"
    )
    data = sky(text).description.data
    assert data.inputs is None
    assert data.no_inputs is True
    # a data file fetched the same way is read, and says so
    data = sky(text.replace("01_demo.ipynb", "train.csv")).description.data
    assert [i.location for i in data.inputs] == [
        "https://example.github.io/tool/_downloads/abc/train.csv"
    ]
    assert data.no_inputs is None


def test_benchmark_options_are_choices_and_a_gpu_instance_choice_brings_its_accelerators():
    # (seen-bq) SkyPilot Benchmark's first spelling of `candidates` is `options:`; a choice
    # that names only a GPU instance type asks for that instance's GPUs, in its place
    text = (
        "resources:\n  cloud: aws\n  options:\n"
        "    - {instance_type: g4dn.8xlarge}\n    - {accelerators: V100}\n"
        "run: python run_glue.py\n"
    )
    result = sky(text)
    request = result.description.to_data()["request"]
    assert request["accelerators"] == [{"type": "T4", "count": 1}, {"type": "V100", "count": 1}]
    assert request["instance_type"] == "g4dn.8xlarge"
    assert any(n.startswith("resources.options:") for n in result.notes)
    # a key of that name that is not a list of resource settings is not read as choices
    text = "resources:\n  accelerators: A100:1\n  options: [fast]\nrun: python x.py\n"
    request = sky(text).description.to_data()["request"]
    assert request["accelerators"] == [{"type": "A100", "count": 1}]


def test_a_model_env_handed_only_to_a_client_of_a_remote_server_is_not_loaded():
    # (seen-bq) a chat UI in front of a model server elsewhere names the model it answers for
    run = (
        "run: |\n  python webserver.py \\\n    -m $MODEL_NAME \\\n"
        "    --model-url http://$ENDPOINT/v1 | tee gui.log\n"
    )
    envs = "envs:\n  MODEL_NAME: org/chat-70b\n  ENDPOINT: x.x.x.x:3031\n"
    data = sky(envs + "resources:\n  cpus: 2\n" + run).description.to_data()
    assert not (data.get("data") or {}).get("inputs")
    # the job's own server (localhost) loads it
    local = run.replace("http://$ENDPOINT/v1", "http://localhost:8081/v1")
    data = sky(envs + "resources:\n  cpus: 2\n" + local).description.to_data()
    assert [i["location"] for i in data["data"]["inputs"]] == ["hf://org/chat-70b"]
    # (review) a trainer given a mirror's or a tracker's address, or a model server's, loads
    # the model itself: only a client (a chat UI, a benchmark, an evaluation) of a model
    # server's API (a port, `/v1`) answers with a model elsewhere
    for command in (
        "python train.py -m $MODEL_NAME --base-url https://hf-mirror.com",
        "python train.py -m $MODEL_NAME --api-base https://api.wandb.ai",
        "python distill.py -m $MODEL_NAME --openai-api-base http://10.0.0.5:8000/v1",
        "python webserver.py -m $MODEL_NAME --model-url https://hf-mirror.com",
    ):
        data = sky(envs + "resources:\n  cpus: 2\nrun: " + command + "\n").description.to_data()
        assert [i["location"] for i in data["data"]["inputs"]] == ["hf://org/chat-70b"], command
    command = "python benchmark_serving.py -m $MODEL_NAME --base-url http://10.0.0.5:8000"
    data = sky(envs + "resources:\n  cpus: 2\nrun: " + command + "\n").description.to_data()
    assert not (data.get("data") or {}).get("inputs")


def test_a_mount_the_job_syncs_out_of_and_back_into_is_both_and_one_of_programs_is_code():
    from jobs.jobformat.mounts import Use, classify

    # Copied out at the start, then copied back by a crontab line whose output goes to a log:
    # read and written, so neither direction alone.
    synced = (
        "mkdir -p /r2/answers\nrsync -av /r2/answers/ data\n"
        'echo "* * * * * rsync -av data/ /r2/answers >> sync.log 2>&1" | crontab -\n'
    )
    assert classify("/r2", "r2://b", script=synced).use == Use.UNCLEAR
    # Only written (the log redirect after the destination does not hide it).
    assert classify("/out", "s3://b", script="rsync -a res/ /out/res >> s.log 2>&1\n").use == (
        Use.WRITTEN
    )
    # Helper programs installed from it and run: the job's code, not data.
    tools = "install -m 755 /r2/setup/k3s_* .\nsudo -E ./k3s_server.py --port 8080\n"
    assert classify("/r2", "r2://b", script=tools).use == Use.CODE
    # Weights put in place by install (no executable mode, a data file's name): not code.
    weights = "install -D /r2/weights.bin /models/weights.bin\n"
    assert classify("/r2", "r2://b", script=weights).use != Use.CODE
    assert classify("/r2", "r2://b", script="install -m 644 /r2/run_x /opt/\n").use != Use.CODE
    # A copy's destination is its last word, on a long line too (timed by the bench).
    assert classify("/data", "s3://b", script="cp " * 3_333 + "/data x\n").use != Use.WRITTEN
    assert classify("/out", "s3://b", script="sudo cp res.csv '/out/r.csv' 2>err.log\n").use == (
        Use.WRITTEN
    )
    # …not when it is also read otherwise, nor when it is where programs are installed.
    assert classify("/r2", "r2://b", script=tools + "cat /r2/x.json\n").use == Use.READ
    assert classify("/r2", "r2://b", script="install -m 755 k3s /r2/bin\n").use != Use.CODE


def test_a_model_dir_in_a_train_mode_is_the_model_written():
    # TensorFlow's official models told `--mode=train`: --model_dir is where the model goes.
    run = (
        "resources:\n  accelerators: V100:2\nrun: |\n"
        "  python -u models/official/resnet/resnet_main.py --use_tpu=False \\\n"
        "      --mode=train --train_steps=1000 \\\n"
        "      --data_dir=gs://bucket/fake_imagenet \\\n"
        "      --model_dir=resnet-model-dir \\\n      --amp\n"
    )
    data = sky(run).description.to_data()
    assert [a["destination"] for a in data["output"]["artifacts"]] == ["resnet-model-dir"]
    # With no mode (or an evaluation mode) it says nothing: as often the model it loads.
    for mode in ("", "--mode=eval "):
        data = sky(run.replace("--mode=train ", mode)).description.to_data()
        assert not (data.get("output") or {}).get("artifacts"), mode


def test_embeddings_loaded_into_a_persisted_vector_database_are_read():
    text = (
        "envs:\n  EMB: sky-emb\nfile_mounts:\n  /embeddings:\n    name: ${EMB}\n    mode: MOUNT\n"
        "  /vectordb:\n    name: sky-vdb\n    mode: MOUNT\n"
        "run: |\n  python scripts/build_rag.py \\\n    --persist-dir /vectordb/chroma \\\n"
        "    --embeddings-dir /embeddings \\\n    --batch-size 1000\n"
    )
    data = sky(text).description.to_data()
    assert [(i["name"], i["location"]) for i in data["data"]["inputs"]] == [
        ("/embeddings", "bucket://sky-emb")
    ]
    assert [a["name"] for a in data["output"]["artifacts"]] == ["/vectordb"]
    # Without a database kept somewhere the option does not say (it names what an encoder writes
    # as often): the launcher-created bucket stays an output.
    data = sky(text.replace("--persist-dir /vectordb/chroma", "--limit 5")).description.to_data()
    assert "/embeddings" in [a["name"] for a in data["output"]["artifacts"]]


def test_a_setup_that_installs_the_docker_cli_and_checks_it_reads_nothing():
    text = (
        "resources:\n  cpus: 2+\nsetup: |\n"
        "  sudo install -m 0755 -d /etc/apt/keyrings\n"
        "  sudo curl -fsSL https://download.docker.com/linux/debian/gpg -o /etc/apt/keyrings/d.asc\n"
        "  sudo apt-get update && sudo apt-get install -y docker-ce-cli\n  docker info\n"
    )
    assert sky(text).description.data.no_inputs is True
    assert (
        sky(text.replace("docker info", "docker cp x:/data .")).description.data.no_inputs is None
    )


def test_sky_job_controls_and_launches_of_an_inline_command_that_reads_nothing_read_nothing():
    base = "resources:\n  cpus: 2\nrun: |\n  source ~/skypilot-runtime/bin/activate\n"
    quiet = (
        '  for step in 1 2; do\n    sky jobs launch -y -d -n "eval-$step" --cpus 1+ \\\n'
        '      "echo Evaluating $step; sleep 60" || { echo "Launch $step failed"; exit 1; }\n'
        "  done\n"
        "  for i in $(seq 1 3); do\n    if ! q=$(sky jobs queue 2>&1); then\n"
        "      sleep 10\n      continue\n    fi\n"
        "    n=$(echo \"$q\" | sed 's/x//g' | grep -c RUNNING || true)\n  done\n"
    )
    assert sky(base + quiet).description.data.no_inputs is True
    # A launched command that reads, or a task file whose work is not shown: not said.
    reads = quiet.replace("echo Evaluating $step; sleep 60", "python eval.py --data /d/$step")
    assert sky(base + reads).description.data.no_inputs is None
    task = base + "  sky jobs launch -y eval.yaml\n"
    assert sky(task).description.data.no_inputs is None
    # sed given a file reads it.
    assert sky(base + "  sed 's/x//g' /data/in.txt\n").description.data.no_inputs is None
