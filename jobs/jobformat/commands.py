"""Data a job moves with its own commands: what it downloads, hands to its program, copies
out or uploads, where it checkpoints, the container it starts, and whether it keeps a
server running (issue 28).

`read(text)` returns one `Proposal` per thing read, with the 1-based line and the line's
text, so the partner can confirm each against the script. Only what a command says
outright is proposed: a path whose direction the commands do not tell is unclassified,
and a value that is still a shell expression (`$(…)`, a variable the file never sets in a
form we can read) is left out rather than guessed.

The scan is line by line with anchored, bounded regexes, so a 1 MB script stays linear.
No Django: the format runs on a login node with only pydantic and PyYAML."""

import itertools
import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from .envs import DEFAULTED, POSITIONAL, script_variables
from .mounts import (
    CLOUD_URI,
    ECHOED,
    LORA_OPTIONS,
    NOT_A_KEY_VALUE,
    URI,
    USER_CONFIG,
    copied_folder,
    saves_turned_off,
    secret_name,
    shown_line,
)
from .realtime import CONTAINER_VALUED, ends_serving, serving_signals
from .textio import HEAD_LINES, LONGEST_COMMAND, TAIL_LINES, head_and_tail, longest_command


@dataclass(frozen=True)
class Proposal:
    path: str  # the field it fills: data.inputs, output.artifacts, request.checkpoint_location…
    value: object
    line: int  # 1-based, in the text given to read()
    text: str  # that line as written (stripped, cut to 200 characters)
    said: str  # the words it was read from, e.g. "--data /lustre/datasets/webtext-v3"
    section: str = ""  # for SkyPilot: "setup" or "run"
    # the first line of the command it was read from (a command continued over several lines
    # with `\` is one command); 0 when not known
    command: int = dataclass_field(default=0, compare=False)

    def note(self):
        where = f"line {self.line}" + (f" of {self.section}" if self.section else "")
        # A person reads the note: a yes-or-no field says so in words, not as Python's True.
        value = ("yes" if self.value else "no") if isinstance(self.value, bool) else self.value
        return f"{self.path}: {value} (read from `{self.said[:160]}` on {where})."


# --- words and values -----------------------------------------------------------------------

# A double-quoted value the assignment reader cannot take (it runs a command: `` `pwd` ``, `$(…)`).
COMMAND_STRING = re.compile(r'^\s*(?:export\s+)?[A-Za-z_]\w*="([^"]*)"\s*$')
# A bash array set on one line: `ARGS=(…)`, `ARGS+=(…)`, `declare -a ARGS=(…)` (a `;` after it too).
ARRAY = re.compile(
    r"^\s*(?:(?:declare|local|readonly)(?:\s+-\w+)+\s+)?[A-Za-z_]\w*\+?=\(([^()]*)\)\s*;?\s*(?:#.*)?$"
)
# A shell word: unquoted runs, quoted strings and command substitutions (`$(date +%F)`, one
# level of parentheses inside, and backquotes), which the shell keeps in the word whatever
# spaces they hold. No deeper nesting, so matching stays linear: an unclosed `$(` is only
# its two characters.
WORD = re.compile(
    r"""(?:[^\s"'`$]+|\$\((?:[^()\n]|\([^()\n]*\))*\)|\$\(?|"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)+"""
)
# NAME=value, the value in quoted and unquoted pieces (`"$ROOT"/run/"$ID"`), no `$(…)`.
# A line that starts by assigning a name (`X=/a`, `export X=…`): where the name is last set.
LINE_ASSIGNMENT = re.compile(r"\s*+(?:(?:export|readonly|local|declare)\s++)?([A-Za-z_]\w*+)=")
ASSIGNMENT = re.compile(
    r"""^\s*(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)="""
    r"""((?:"(?:[^"`$\\]|\$(?!\()|\$\([^()"`]*\)|\\.)*"|'[^']*'|[^\s"'`;&|()\\]|\\.)*)\s*$"""
)
# …and one with a comment after it (`DATA_DIR=${DATA_DIR:-/x/Data}  # the HDF5s`): the shell
# reads the same assignment (the value's characters hold no blank, so the comment's blank ends it).
COMMENTED_ASSIGNMENT = re.compile(ASSIGNMENT.pattern.removesuffix(r"\s*$") + r"[ \t]++#[^\n]*+$")
_HF_NAME = re.compile(r"[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,95}")
# org/name, but not a file in a folder (`configs/model.yaml`): Hub names carry no extension.
FILE_NAME = re.compile(
    r"\.(?:ya?ml|json|py|pth?|bin|ckpt|safetensors|gguf|txt|toml|sh|nemo|cfg|jsonl|csv|parquet)$",
    re.IGNORECASE,
)


class _HubId:
    """`HF_ID.fullmatch(value)`: an org/name Hub id."""

    @staticmethod
    def fullmatch(value):
        return bool(_HF_NAME.fullmatch(value)) and not FILE_NAME.search(value)


HF_ID = _HubId()
HF_BARE = re.compile(r"[A-Za-z0-9][\w.-]{0,95}")
# A value we can state: no command substitution, no unbalanced quoting, no glob of choices.
# (and no placeholder left for the user to fill: `<OPENRLHF_ROOT_PATH>`, `{wandb_token}`)
# A date stamp (`run-$(date +%Y%m%d)`) is kept as written: it names a place new each day, as
# `$SLURM_JOB_ID` does each run; the user's name (`/work/$(whoami)`, `$(id -un)`) is `$USER`'s,
# kept as written; any other command's output is not known before the job runs.
SHELL_LEFT = re.compile(
    r"\$\((?!date(?:\s+[+-][^()\s]*)*\)|whoami\)|id\s+-un\))|`|\{[^{},]*,|\$\{[^{}]*[:#%/]|<[\w .-]+>|(?<!\$)\{\s*\w+\s*\}"
)
RAY_WORKING_DIR = re.compile(r"""working_dir[\\"']{0,3}\s*:\s*[\\"']{0,3}(/[^"'\\\s,}]+)""")


QUOTED = re.compile(r"""(["'])(.*?)\1""")


def _unquote(word):
    return QUOTED.sub(r"\2", word) if ('"' in word or "'" in word) else word


def _words(line):
    return [_unquote(w) for w in WORD.findall(line)]


def _statable(value):
    return bool(value) and len(value) <= 300 and not SHELL_LEFT.search(value)


def _is_path(value):
    return value.startswith(("/", "./", "../", "~", "$")) and not value.startswith("//")


def _trainer(command):
    """True when the command's program is named for training (`denoiser/train.py`,
    `train_net.py`, `pretrain.py`), by its own name, not its arguments', or when it is told to
    train by a flag (`run.py --do_train`, as the Hugging Face example scripts take it)."""
    m = PYTHON_PROGRAM.search(command)
    if not m:
        return False
    return bool(TRAINS.search(m.group(1))) or ("--do" in command and bool(DO_TRAIN.search(command)))


# A flag telling a program to train (`--do_train`, `--do-train`), a word of its own.
DO_TRAIN = re.compile(r"(?<!\S)--do[-_]train(?![\w-])")


# The first Python program a command runs, its file name (`denoiser/train.py` -> `train.py`).
PYTHON_PROGRAM = re.compile(r"(?:^|[\s/\"'])([\w.-]+\.py)\b")


def _dataset_description(value):
    """`--data coco128.yaml` (YOLO's trainers): a YAML file that says where the images and
    labels are, the dataset the run reads by the name it is given."""
    return bool(RELATIVE.fullmatch(value) and re.search(r"\.ya?ml$", value))


def _data_file_named(value):
    """A data file by its kind given by a relative name (`alpaca_data.json`,
    `data/train.jsonl`) to an option that takes a dataset or the data: the file read, not a Hub
    id (Hub names carry no extension)."""
    return bool(RELATIVE.fullmatch(value)) and bool(
        DATA_FILE.search(value) or re.search(r"\.json$", value, re.IGNORECASE)
    )


def _relative_glob(value):
    """Files under a folder of the working directory given as a pattern by their extension
    (`--data_files "corpus/news/*.txt"`): the files read (a place, not a shell expression)."""
    folder, _, files = value.rpartition("/")
    return (
        bool(folder)
        and RELATIVE.fullmatch(folder) is not None
        and "*" in files
        and "." in files
        and GLOB_FILES.fullmatch(files) is not None
    )


def _relative_folder(value, written=False):
    """A place under the working directory that cannot be a Hub id (`org/name`, one slash):
    three parts or more (`data/bowl-2018/stage1_train`); for a place written, also two under a
    folder named for results (`outputs/run1`). (`--data-path data/train` as often names a
    folder an earlier step of the job fills.)"""
    if not RELATIVE_PLACE.fullmatch(value) or "$" in value:
        return False
    parts = value.rstrip("/").split("/")
    return len(parts) >= 3 or (written and len(parts) == 2 and parts[0].lower() in LOCAL_FOLDERS)


# --- the patterns ---------------------------------------------------------------------------

# Options that hand a Hugging Face model (or a local copy of one) to the program.
MODEL_OPTIONS = {"--model_name_or_path", "--model-name-or-path", "--model_id", "--model-id",
                 # diffusers' and fine-tuning scripts' spellings
                 "--pretrained_model_name_or_path", "--pretrained-model-name-or-path",
                 "--base_model", "--base-model",
                 # a tokenizer's, by name or path as its name says (a path is a folder it reads)
                 "--tokenizer_name_or_path", "--tokenizer-name-or-path",
                 # the last part of a grouped option (`--tokenizer.name_or_path`,
                 # `--model.name_or_path`): a model or tokenizer by name or path
                 "--name_or_path", "--name-or-path"}  # fmt: skip
# Options that name a model by Hub id or by a path; only a Hub id (`org/name`) is read.
HUB_ID_OPTIONS = {"--model", "--model_name", "--model-name", "--model-path", "--model_path",
                  "--tokenizer_name", "--tokenizer-name", "--tokenizer", "--tokenizer-path",
                  "--tokenizer_path",
                  # a tokenizer by its Hub id, as `--model-id` names the model's
                  "--tokenizer-id", "--tokenizer_id",
                  "--hf_model", "--hf-model", "--pretrained", "--base_model_name",
                  "--base-model-name",
                  # the encoder a retrieval index is built with (`--encoder org/name`)
                  "--encoder",
                  # Megatron's tokenizer: a Hub id or the tokenizer's files
                  "--tokenizer-model", "--tokenizer_model",
                  # the weights an evaluation starts from (OpenVLA's `org/name` on the Hub)
                  "--pretrained_checkpoint", "--pretrained-checkpoint",
                  # a Hub repository fetched by name (llama.cpp, BitNet's setup_env.py)
                  "--hf-repo", "--hf_repo",
                  # the model's location, as `--model_path` (`--model_loc runs/base`)
                  "--model_loc", "--model-loc", "--model_location", "--model-location",
                  # a vision-language model's image encoder (LLaVA's `--vision_tower org/clip`)
                  "--vision_tower", "--vision-tower",
                  # a vision-language trainer's pretrained network (`--backbone org/blip2-x`)
                  "--backbone",
                  # OpenRLHF's trainers' base model (`--pretrain org/name`)
                  "--pretrain"}  # fmt: skip
# The models the Hugging Face Hub still serves without an organisation (`bert-base-cased`,
# `roberta-large`, `t5-small`, `gpt2-medium`): a Hub id under an option that takes one, as
# `org/name` is. (Only these names: a bare word is as often a run's label or a setting.)
CANONICAL_HUB_MODEL = re.compile(
    r"bert-(?:base|large)-(?:uncased|cased|multilingual-(?:uncased|cased)|chinese|german-cased)"
    r"(?:-whole-word-masking)?|roberta-(?:base|large)(?:-openai-detector)?|"
    r"distilbert-base-(?:uncased|cased|multilingual-cased|german-cased)|distilroberta-base|"
    r"xlm-roberta-(?:base|large)|albert-(?:base|large|xlarge|xxlarge)-v[12]|"
    r"t5-(?:small|base|large|3b|11b)|gpt2(?:-medium|-large|-xl)?|distilgpt2|"
    r"xlnet-(?:base|large)-cased|bart-(?:base|large)"
)
# (lm-eval's `--model hf --model_args pretrained=org/x`, or `--model gpt2` beside it: the class
# of model the harness loads, the model itself being the `pretrained=`)
MODEL_ARGS = re.compile(r"--model[_-]args\b")
PRETRAINED_ARG = re.compile(r"\bpretrained=")
# …of which these name the model's own folder when given a path (`--model-path /models/x`).
MODEL_PATH_OPTIONS = {"--model-path", "--model_path", "--tokenizer-model", "--tokenizer_model",
                      # a tokenizer's own file or folder (`--tokenizer_path ckpt/tokenizer.model`,
                      # Llama's and SentencePiece's), read as Megatron's `--tokenizer-model` is
                      "--tokenizer_path", "--tokenizer-path",
                      "--model_loc", "--model-loc", "--model_location", "--model-location"}  # fmt: skip
# …and these when given a path written out (`--model_name ../models/whisper-ft`: no run's name
# has a folder before it; a variable, `--model_name $RUN_TAG`, may be a run's label).
MODEL_NAME_OPTIONS = {"--model_name", "--model-name"}
# …and that name a Hub dataset.
# open-instruct's datasets and their weights (`--dataset_mixer_list org/a 1.0 org/b 0.5`)
MIXER_OPTIONS = {"--dataset_mixer_list", "--dataset-mixer-list"}
DATASET_OPTIONS = {
    "--dataset_name",
    "--dataset-name",
    "--hf-dataset",
    "--hf_dataset",
    "--prompt_dataset",
    "--prompt-dataset",
    "--prompt_data",
    "--prompt-data",
    "--dataset_id",
    "--dataset-id",
    "--train_dataset",
    "--train-dataset",
    "--dataset_name_or_path",
    "--dataset-name-or-path",
    *MIXER_OPTIONS,
}
# Prompts a serving benchmark makes up itself (vLLM's and SGLang's `bench_serving
# --dataset-name random`): no dataset is read.
GENERATED_DATASET = re.compile(r"random(?:[-_]\w+)?|generated[-_]shared[-_]prefix")
# …and the kinds of data those benchmarks take by `--dataset-name` (`--dataset-name sharegpt
# --dataset-path ShareGPT.json`, `--dataset-name sonnet`): a format's name, not a Hub dataset;
# what is read is the `--dataset-path` beside it (or the benchmark's own file).
BENCHMARK_DATASET_KIND = re.compile(
    r"sharegpt|sonnet|burstgpt|custom|hf|prefix[-_]repetition|spec[-_]bench|mooncake|mmmu|image"
)
# Options that hand the program a path to read (the data it trains or runs on).
DATA_OPTIONS = {"--data", "--data-path", "--data_path", "--datapath", "--train-data", "--train_data",
                # the list of URLs img2dataset and video2dataset download (`--url_list u.txt`)
                "--url_list", "--url-list",
                "--train-data-path", "--train_data_path", "--dataset",
                # files a program reads: its input, a tokenizer's vocabulary and merges
                "--input", "--input-file", "--input_file", "--vocab-file", "--vocab_file",
                "--vocab_path", "--vocab-path",
                "--merge-file", "--merge_file", "--tokenizer-file", "--tokenizer_file",
                # training and evaluation files and folders
                "--train_file", "--train-file", "--validation_file", "--validation-file",
                "--dataset_path", "--dataset-path", "--data_dir",
                "--train_data_dir", "--instance_data_dir", "--dataset_dir", "--dataset-dir",
                "--input_path", "--input-path", "--train_dir", "--train-dir",
                "--data_files", "--data-files", "--eval_data", "--eval-data", "--val_data",
                "--val-data", "--test_file", "--test-file", "--eval_file", "--eval-file",
                "--test_data", "--test-data", "--train_path", "--train-path",
                # the held-out split an evaluation scores on (`--val_path val.bin`)
                "--val_path", "--val-path", "--valid_path", "--valid-path", "--test_path",
                "--test-path", "--validation_path", "--validation-path",
                # weights a program starts from
                "--init_checkpoint", "--init-checkpoint", "--pretrained_weights",
                "--pretrained-weights", "--weights",
                # the texts a program indexes or tokenizes (pyserini's --corpus, dolma's
                # --documents)
                "--corpus", "--documents",
                # the captured scene a 3D reconstruction fits (Gaussian splatting's and
                # NeRF trainers' --source_path, --scene_path)
                "--source_path", "--source-path", "--scene_path", "--scene-path"}  # fmt: skip
# (--data-dir is left out, unless an output place is beside it (PAIRED_OUTPUT): servers take
# it alone for where they keep their own files; --input_dir
# and --data_root as often name where a step writes for the next.)
# Variables named for the data a program reads (`TRAIN_DATA_PATH`, `val_data_path`, `DATA_DIR`,
# `DATA_DIRECTORY`) or the model it starts from (`MODEL_PATH`, `BASE_MODEL`), whatever their case.
DATA_VARIABLE = re.compile(
    r"^(?:TRAIN_|VAL_)?DATA_PATH$|^DATASET_PATH$|^DATA_DIR(?:ECTORY)?$", re.IGNORECASE
)
# …and as the host side of a container mount (`-v $DATADIR:/data`), where the name says what the
# mount is for (set alone, `export DATADIR=…` for a program given at submission says nothing).
MOUNTED_DATA_VARIABLE = re.compile(r"^DATA_?DIR$|^DATASET_PATH$", re.IGNORECASE)
# Variables named for where a job puts its results and logs (`LOGDIR`, `RESULTS_DIR`), as the
# host side of a container mount: the place the containerised program writes.
RESULT_VARIABLE = re.compile(r"^(?:LOG|LOGS|RESULT|RESULTS|OUTPUT)_?DIR$", re.IGNORECASE)
# …and, set to the script's argument only, one named for the input (`INPUT_DIR=$1`, the input
# file: `infile=$1`, `INPUT_FILE=$1`): what the caller hands the job to work on (a place an
# earlier step filled would be written in the file).
INPUT_ARGUMENT = re.compile(r"^INPUT_(?:DIR|PATH|FOLDER|FILE)$|^IN_?FILE$", re.IGNORECASE)
CHECKPOINT_ARGUMENT = re.compile(r"^(?:CHECKPOINT|CKPT)_(?:PATH|DIR|FILE)$", re.IGNORECASE)
# A variable named for a checkpoint's place (`--model_name "${CHECKPOINT_PATH}"`): the folder
# of the model a program loads, kept as written.
CHECKPOINT_PATH_VARIABLE = re.compile(
    r"\$\{?(?:\w+_)?(?:CHECKPOINT|CKPT)_(?:PATH|DIR)\}?", re.IGNORECASE
)
PATH_NAMED = re.compile(r"(?:PATH|DIR)\}?$", re.IGNORECASE)
# (Not a model the job makes: `OUTPUT_MODEL_DIR`, `SAVE_MODEL_PATH`, `MERGED_MODEL_PATH`.)
MODEL_VARIABLE = re.compile(
    r"^(?!(?:\w+_)?(?:OUTPUT|OUT|SAVE|SAVED|FINAL|EXPORT|EXPORTED|MERGED|TRAINED|NEW|TARGET|DEST|"
    r"UPLOAD|PUSH|HUB|SERVED)_)"
    r"(?:\w+_)?MODEL_(?:PATH|DIR|NAME_OR_PATH|NAME|ID|REPO)$|^(?:BASE|PRETRAINED)_MODEL$",
    re.IGNORECASE,
)
OUTPUT_OPTIONS = {
    "--output_dir",
    "--output-dir",
    "--logdir",
    "--log_dir",
    "--log-dir",
    # Hugging Face Trainer's TensorBoard folder (a run's `--run-dir`: RUN_DIR_OPTIONS)
    "--logging_dir",
    "--logging-dir",
    "--tensorboard-dir",
    "--tensorboard_dir",
    "--output-prefix",
    "--output_prefix",
    "--output_path",
    "--output-path",
    "--out_dir",
    "--out-dir",
    "--results_dir",
    "--results-dir",
    # a program's result files and folders, and Lightning's root for its logs and checkpoints
    "--output_file",
    "--output-file",
    "--outfile",
    "--out_file",
    "--out-file",
    "--outdir",
    # a designer's or predictor's folder of results (ProteinMPNN's `--out_folder`)
    "--out_folder",
    "--out-folder",
    "--output_folder",
    "--output-folder",
    "--result_dir",
    "--result-dir",
    "--default_root_dir",
    "--default-root-dir",
    # where a converter puts what it made (dolma's `tokens --destination`), and a merge's or
    # an exporter's folder (LLaMA-Factory's `export --export_dir`, as the override `export_dir=`)
    "--destination",
    "--export_dir",
    "--export-dir",
    # a binarizer's or converter's folder of shards (fairseq-preprocess `--destdir`, a
    # streaming converter's `--out_root`)
    "--destdir",
    "--out_root",
    "--out-root",
    # where a tokenizer trainer writes its model and vocabulary (SentencePiece's `spm_train
    # --model_prefix=m` makes m.model and m.vocab)
    "--model_prefix",
    "--model-prefix",
    # an experiment's or a run's folder of results (`--expdir runs/x`, OpenVLA's
    # `--run_root_dir logs/`)
    "--expdir",
    "--exp_dir",
    "--exp-dir",
    "--run_root_dir",
    "--run-root-dir",
}
# Options named for one file (or a prefix of files): a bare name there is a file written.
OUTPUT_FILE_OPTIONS = {"--output_file", "--output-file", "--outfile", "--out_file", "--out-file",
                       "--model_prefix", "--model-prefix"}  # fmt: skip
# Options named for where a program writes that are not in the list: `--output_model_dir`,
# `--eval-output-path`, `--artifact-dir` (not a log's or a cache's place: OWN_FILES).
OUTPUT_NAMED = re.compile(
    r"--(?:[a-z]+[-_])*(?:output|artifacts?)(?:[-_][a-z]+)*[-_](?:dir|directory|path|folder|root)"
)
# …and options whose last word is `output` (`--convert_output x.mp4`, `--save-output out/`):
# where the program writes, when the value is a path (not a switch: `--print_output true`).
OUTPUT_LAST = re.compile(r"--(?:[a-z]+[-_])+output")
# Files named for what a program reports (`--summary_path s.json`, `--metrics_file m.json`,
# `--predictions_path p.jsonl`, an evaluation's `--answer-file a.jsonl`): what it writes.
REPORT_OPTION = re.compile(
    r"--(?:summary|metrics|results?|predictions?|answers?|report|scores?)[-_](?:path|file|json)"
)
# A model named by its role (`--dpo_model_path`, `--reward-model-path`, `--ref_model_name_or_path`):
# the model the program loads; not one it makes (`--output_model_path`, `--save_model_path`).
ROLE_MODEL_OPTION = re.compile(
    r"--(?!(?:output|out|save|saved|final|export|merged|trained|new|target|dest|upload|push|"
    r"hub)[-_])[a-z]+(?:[-_][a-z]+)*[-_]model[-_](?:path|name_or_path|name-or-path)"
)
# The checkpoint a program loads (`eval.py --checkpoint runs/x`, `-ckpt best.pt`): the model it
# reads, on a line that neither trains, saves on a schedule nor resumes.
LOADED_CHECKPOINT = {"--checkpoint", "--ckpt", "-ckpt", "-checkpoint"}
# …and a weights file under an option naming the checkpoint with another word (`--openfold_
# checkpoint_path model.pt`, `--checkpoint_soluble_mpnn v_48_002.pt`), on the same terms.
NAMED_CHECKPOINT = re.compile(
    r"--(?:[a-z0-9]+[-_])+(?:checkpoint|ckpt)(?:[-_](?:path|file))?|--(?:checkpoint|ckpt)(?:[-_][a-z0-9]+)+"
)
# (not `pretrained`: the weights a program starts from, `run_pretrained_openfold.py`)
TRAINS = re.compile(r"(?<!pre)train|pretrain(?!ed)", re.IGNORECASE)
# Generated texts (`--generated_path`, `--generations_file`): as often what an evaluation reads
# as what a generation step writes, so not stated either way.
GENERATED_OPTION = re.compile(r"--(?:[a-z]+[-_])*generat")
# …and for what it reads, with a word saying what: `--input_tokenizer_file`,
# `--dataset_base_path`, `--eval_data_dir` (not a place it writes: WRITES, nor its own files:
# OWN_FILES). A bare `--input_dir`/`--data_root` as often names where a step writes for the next.
INPUT_NAMED = re.compile(
    r"--(?:[a-z]+[-_])*(?:input|data|dataset)(?:[-_][a-z]+)+[-_](?:path|dir|directory|file|root|folder)|"
    # the data named by a word before it (`--raw_data_directory`, `--eval_data_dir`)
    r"--(?:[a-z]+[-_])+(?:data|dataset)[-_](?:path|dir|directory|folder)|"
    # what describes the data (`--video-metadata-path`, `--annotations_file`, `--captions-dir`):
    # read, a JSON file too (it is the data's description, not the program's settings)
    r"--(?:[a-z]+[-_])*(?:metadata|annotations?|captions?)[-_](?:path|dir|directory|file|root|folder)"
)
# (`ann`, annotation's short form, as a part of its own: `--dataset_ann_path`, `--ann-file`)
DESCRIBES_DATA = re.compile(r"metadata|annotation|caption|[-_]anns?(?![^-_])")
# …and options named for the kind of file they hand over, in structural biology and chemistry:
# the structures, sequences, alignments, molecules or cells a predictor or designer reads
# (`--pdb_path`, `--pdb x.pdb`, `--fasta_paths`, `--a3m_dir`, `--template_mmcif_dir`,
# `--use_precomputed_alignments DIR`, `--sdf_file`, `--h5ad_path`, AlphaFold 3's `--json_path`).
# (Not one named for writing: WRITES; a bare `--json` is a switch as often as a file.)
FORMAT_INPUT = re.compile(
    r"--(?:[a-z0-9]+[-_])*(?:pdbs?|pdbqts?|fastas?|a3ms?|msas?|alignments|mmcif|cif|sdf|mol2|h5ad|"
    # the molecules a docking program is given (`--receptor r.pdbqt`, `--ligands lib.sdf`)
    r"ligands?|receptors?)"
    r"(?:[-_](?:paths?|dir|directory|files?|folder|root|ids?))?|"
    # (a bare `--smiles` is as often a molecule written out, `c1ccccc1.O`)
    r"--(?:[a-z0-9]+[-_])*smiles[-_](?:paths?|dir|directory|files?|folder|root)|"
    r"--(?:[a-z0-9]+[-_])*json[-_](?:paths?|files?)"
)
# An option naming an index of the data (`--index_db_path`, `--index-file`).
# (not one named for what the program writes: `--output_index_file`, `--save_index_path`)
INDEX_OPTION = re.compile(
    r"--(?!(?:[a-z0-9]+[-_])*(?:out|output|save|write|dump)[-_])"
    r"(?:[a-z0-9]+[-_])*index(?:[-_]db)?[-_](?:path|file)"
)
FORMAT_WORD = re.compile(
    r"pdb|fasta|a3m|msa|alignment|cif|sdf|mol2|smiles|h5ad|json|ligand|receptor"
)
# A bare `--input_dir` is what a program reads when the same command also names where it
# writes (`convert.py --input_dir A --output_dir B`); alone it as often names a place a step
# writes for the next.
PAIRED_INPUT = {"--input_dir", "--input-dir",
                # the root of the inputs beside the root of the outputs (`score.py
                # --input_root A --output_root B`)
                "--input_root", "--input-root"}  # fmt: skip
# A BIDS App's analysis level, the word after its two folders (`fmriprep IN OUT participant`).
BIDS_LEVELS = {"participant", "group"}
# …which the command names, or whose image it runs (any app of the standard ships as one):
# fMRIPrep and its kin, MRIQC, XCP-D, NiBabies, the `bids/…` images.
BIDS_APP = re.compile(
    r"(?:fmri|qsi|smri|asl|dmri)prep|qsirecon|mriqc|xcp[-_]?d|nibabies|fmripost|bids|"
    r"\.(?:sif|simg)$|^docker://",
    re.IGNORECASE,
)
BIDS_LEVEL = re.compile(r"(?<![\w-])(?:participant|group)(?![\w-])")
PAIRED_OUTPUT = {"--output_dir", "--output-dir", "--output_path", "--output-path",
                 "--output_root", "--output-root"}  # fmt: skip
# Predictors named with their bare arguments, in order: what each one is (PREDICTOR_ARGUMENTS),
# and options whose value is a place (not a flag before an argument).
PREDICTOR_ARGUMENTS = {
    ("colabfold_batch", None): ("data.inputs", "output.artifacts"),
    ("boltz", "predict"): ("data.inputs",),
    ("chai-lab", "fold"): ("data.inputs", "output.artifacts"),
    ("run_pretrained_openfold.py", None): ("data.inputs", "data.inputs"),
    # fairseq's HuBERT label tools (examples/hubert/simple_kmeans), by their paths (the split's
    # name, shard counts and layer are no paths): `dump_mfcc_feature.py TSV_DIR SPLIT NSHARD RANK
    # FEAT_DIR`, `dump_hubert_feature.py TSV_DIR SPLIT CKPT LAYER NSHARD RANK FEAT_DIR`,
    # `learn_kmeans.py FEAT_DIR SPLIT NSHARD KM_PATH N`, `dump_km_label.py FEAT_DIR SPLIT KM_PATH
    # NSHARD RANK LAB_DIR`
    ("dump_mfcc_feature.py", None): ("data.inputs", "output.artifacts"),
    ("dump_hubert_feature.py", None): ("data.inputs", "data.inputs", "output.artifacts"),
    ("dump_w2v2_feature.py", None): ("data.inputs", "data.inputs", "output.artifacts"),
    ("learn_kmeans.py", None): ("data.inputs", "output.artifacts"),
    ("dump_km_label.py", None): ("data.inputs", "data.inputs", "output.artifacts"),
}
# …of which those whose bare arguments are all places (not a split's name or a count).
ONLY_PLACES = {"colabfold_batch", "boltz", "chai-lab", "run_pretrained_openfold.py"}
PREDICTOR_IN_LINE = re.compile(
    r"colabfold_batch|boltz\s+predict|chai-lab\s+fold|run_pretrained_openfold|"
    r"\bdump_(?:mfcc|hubert|w2v2)_feature\.py|\blearn_kmeans\.py|\bdump_km_label\.py"
)
PLACE_OPTION = re.compile(r"(?:path|dir|file|folder|db|data|cache|out)$", re.IGNORECASE)
# (a number, as an option's value or a CDO operator's: `-mulc,86400`, `-sellonlatbox,-10,40.5`)
NUMBER = re.compile(r"[+-]?+(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][+-]?+\d++)?+")
BARE_ARGUMENT = re.compile(r"[\w${}.-]+")
# Long options written with one dash, as Go, Java and many scientific programs take them
# (`ESMFold.py -input x.a3m -output out/`, Hadoop's `-input … -output …`, a trainer's `-save
# models/x`): read as with two; so are those named for a structure or molecule file
# (`openmm_npt.sh -pdb 1btl.pdb`).
SINGLE_DASH_LONG = {"-input", "-output", "-save", "-pdb", "-fasta", "-sdf", "-mol2"}
# fairseq's tools that take the binarized data folder as their first argument, by their
# console names or their scripts (`python fairseq_cli/train.py data-bin/x`).
FAIRSEQ_TOOL = re.compile(
    r"(?:\S*/)?(?:fairseq-(?:train|generate|interactive|validate|eval-lm)|"
    r"fairseq_cli/(?:train|generate|interactive|validate|eval_lm)\.py)"
)
# OpenNMT-py's translator (`onmt_translate`, `translate.py -model m.pt -src s.txt`), and the
# single-dash options of it that name what it reads.
ONMT_TRANSLATE = re.compile(r"(?:^|[\s/])(?:onmt_translate|translate\.py)(?=\s)")
ONMT_READS = {"-model", "-src", "-tgt"}
# A command told to rehearse, and the places it would otherwise write.
DRY_RUN = {"--dry-run", "--dry_run", "--dryrun"}
WRITTEN_PLACES = {"output.artifacts", "request.checkpoint_location", "_save"}
# A folder of recordings a program processes (`--video-dir raw/ --output-dir frames/`): what it
# reads, when the same command names where it writes (a converter or not).
# (and whole-slide images, `--slides_path` beside `--output_path`)
MEDIA_INPUT = re.compile(
    r"--(?:videos?|images?|audios?|frames?|clips?|slides?|wsis?)[-_](?:dir|folder|root|path)"
)
OUTPUT_VARIABLE = re.compile(
    r"^(?:LOGDIR|OUTPUT_DIR|OUT_DIR|OUTPUT_PATH|OUTPUT_FOLDER|RESULTS?_DIR)$", re.IGNORECASE
)
# Options that say where checkpoints are written (not read: --ckpt, --resume-from are loads);
# the one reader of them for both importers. A plain --save is paired with --load (_settle).
# (torchtitan's `--job.dump_folder` is the run's folder, its checkpoints kept under it.)
CHECKPOINT_OPTION = re.compile(
    r"--(?:save[-_](?:dir|path|folder)|dump[-_]folder|(?:checkpoints?|ckpts?)[-_]?(?:dir|folder|path|base|root)(?:[-_]?name)?|"
    r"save[-_]checkpoints?[\w-]*)"
)
# Of those, the ones named for a path: they as often name a checkpoint a program loads
# (`eval.py --checkpoint_path best.ckpt`, a model to start from), so they are the place the
# job keeps its checkpoints only when the line also says it saves them or resumes from them.
CHECKPOINT_FILE_OPTION = re.compile(r"--(?:checkpoints?|ckpts?)[-_]?path")
WEIGHTS_FILE = re.compile(r"\.(?:ckpt|pt|pth|mdl|bin|safetensors|h5|keras|pkl)$")
RESUMES_IN_LINE = re.compile(
    r"(?:--resume|--auto[-_]resume|--cont(?:inue)?[-_]training)(?:[=\s]+(?:true|1|yes|auto|latest)\b|"
    r"\s*$|\s+-)",
    re.IGNORECASE,
)
# (--output_checkpoint_dir is left out: conversion scripts name the model they write with it.)
CHECKPOINT_VARIABLE = re.compile(r"^(?:CHECKPOINT|CKPT)_DIR$", re.IGNORECASE)
# First folders of relative paths that look like `org/name` but are the job's own folders.
LOCAL_FOLDERS = {"data", "datasets", "dataset", "input", "inputs", "output", "outputs", "train",
                 "raw", "processed", "corpus", "tmp", "cache", "logs", "results", "scratch"}  # fmt: skip
# …of which those named for the data a job is given (not its results or scratch).
# A folder named for data with one folder under it named by a variable (`data/${corpus}`).
ARGUMENT_FOLDER = re.compile(r"(?:\./)?+([\w-]++)/\$(?:\{(\w++)\}|(\w++))/?+")
DATA_FOLDERS = {"data", "datasets", "dataset", "input", "inputs", "corpus", "raw", "processed"}
HUB_OPTIONS = {"--hub_model_id", "--hub-model-id", "--hf_upload_path", "--hf-upload-path"}
# A Hub dataset named by what the program does with it (`--replay_dataset org/x`,
# `--eval_dataset org/x`); not one it makes (`--output_dataset`, `--push_dataset`).
DATASET_NAMED = re.compile(
    r"--(?!(?:\w+[-_])?(?:output|out|save|push|upload|export|target|dest|result)s?[-_])"
    r"(?:[a-z]+[-_])+dataset"
)
# A program named for uploading (`python -m pkg.upload`, `upload_results.py`, `push_to_hub.py`):
# the repository it is given is where it writes, not what it reads.
UPLOADER = re.compile(r"(?:^|[\s/.])(?:upload|push)(?:[-_]\w+)?(?:\.py)?(?=[\s\"']|$)")
REPO_OPTIONS = {"--repo", "--repo_id", "--repo-id", "--repo_name", "--repo-name"}
# A trainer's own folder (TensorFlow's and many scripts' `--model_dir`): where it saves and,
# on a line that resumes, what it picks up from.
MODEL_DIR_OPTIONS = {"--model_dir", "--model-dir"}
# A program told to train by a mode option (TensorFlow's official models: `--mode=train`,
# `--mode train_and_eval`): its `--model_dir` is where it writes the model it trains.
TRAIN_MODE = re.compile(r"--mode[=\s]['\"]?train(?:_and_eval)?\b")
HUB_DATASET_OPTIONS = {"--hf-output-dataset", "--hf_output_dataset"}
# Embeddings a program is given: as often vectors it reads (`--embeddings glove.txt`), so they
# are what it writes only when the line encodes (an `--encoder`, an `encode` step).
EMBEDDINGS_OPTIONS = {"--embeddings", "--embeddings-dir", "--embeddings_dir"}
ENCODES = re.compile(r"(?:^|[\s./_-])encode(?:[\s._-]|$)|\s--encoder[=\s]")
# …and read where the line says where the vector database it builds is kept (Chroma's
# `--persist-dir`, `--persist_directory`): the embeddings it loads into it.
PERSISTS = re.compile(r"\s--persist[-_]dir(?:ectory)?[=\s]")
# Of those, the one that as often names where the final model goes, unless the line also says
# how often to save.
SAVE_PLACE = re.compile(r"--save[-_]path")
# (DINO's and its followers' `--saveckp_freq`: a checkpoint every N epochs)
SAVE_INTERVAL = re.compile(
    r"--(?:save|saveckp|checkpoint|ckpt|snapshot)[-_](?:interval|every|steps|freq|frequency|iters)\b"
)
# A program that converts a model (`tools/checkpoint/convert.py`, `export_hf.py`,
# `merge_lora.py`, a Megatron `--loader … --saver …` pair): what it is told to save is the
# model it makes, not a trainer's checkpoints, unless it also saves on a schedule or resumes.
# (Each name pattern starts where a name does, `(?<![\w.-])`: tried inside a long word, a
# leading `[\w.-]*` would read the rest of it from every position, quadratic in its length.)
CONVERTER = re.compile(
    r"(?<![\w.-])[\w.-]*(?:convert|conversion|export|merge)[\w.-]*\.py\b|\s--saver[=\s]",
    re.IGNORECASE,
)
# A program named for the data it makes from what it reads (`index_builder.py`,
# `extract_features.py`, `-m pkg.embed`, `generate.py`, `sample.py`, `inference.py`): what it is
# told to save is that product, as for a converter, unless it trains, saves on a schedule or
# resumes.
_READS = r"index|embed|encod|extract|infer|predict|transcri|caption"
_MAKES = rf"(?:{_READS}|generat|sampl|dock)"
PRODUCER = re.compile(
    rf"(?:^|[\s/])[\w-]*{_MAKES}[\w-]*\.py\b|\s-m\s+[\w.]*{_MAKES}[\w.]*", re.IGNORECASE
)
# …of which those that make it from files they are given (`extract_features.py x.h5`), not
# from nothing (a generator's bare argument may be what it writes).
READER_SCRIPT = re.compile(rf"(?<![\w-])[\w-]*(?:{_READS})[\w-]*\.py", re.IGNORECASE)
SAVE_OPTION = re.compile(r"--save[-_](?:dir|folder|path)")
# A program named for evaluating (`eval_matched_ordering.py`, `evaluate.py`, `-m pkg.eval`):
# the checkpoints it is pointed at are what it loads and scores, unless it also trains, saves
# on a schedule or resumes.
# (The program's name is found first and searched after: one pass over the line.)
PROGRAM_NAME = re.compile(r"(?:^|[\s/])([\w-]+)\.py\b|\s-m\s+([\w.]+)")
# …by a part of its name (`run_eval`, `lm_eval`, `evaluate`, `pkg.eval`; not `retrieval`).
EVALUATING = re.compile(r"(?:^|[_.-])eval", re.IGNORECASE)


def _serves(line):
    """Whether a line starts a server, or a program named for serving (`-m mlc_llm.serve`)."""
    return bool(serving_signals(line)) or SERVE_WORD.search(line) is not None


SERVE_WORD = re.compile(r"\bserve")


def _evaluates(text, first=False):
    """Whether a program the text runs is named for evaluating (EVALUATING): the first one it
    names when `first` (a line's program, not a settings file among its arguments), else any."""
    found = [PROGRAM_NAME.search(text)] if first else PROGRAM_NAME.finditer(text)
    return any(m and EVALUATING.search(m.group(1) or m.group(2)) for m in found)


# …or for answering prompts with a model it loads: chatting or generating text
# (`chat.py`, `example_chat_completion.py`, `generate.py`, `run_inference.py`).
ANSWERING = re.compile(
    r"(?:^|[_.-])(?:chat|generate|generation|completion|infer|inference)(?:$|[_.-])",
    re.IGNORECASE,
)


# …unless it is named for training too (`chat_finetune.py`, `sft_chat.py`, `distill_generate.py`)
# or is told how long to train (`--epochs 3`, `--max_steps 5000`): a trainer of chat models.
TRAINING_NAME = re.compile(r"train|fine[-_]?tun|(?:^|[_.-])sft(?:$|[_.-])|distil", re.IGNORECASE)
TRAINING_LENGTH = re.compile(
    r"(?<!\S)--(?:num[-_](?:train[-_])?epochs|max[-_](?:steps|epochs|iters)|epochs|train[-_]steps)"
    r"(?![\w-])"
)


def _answers(text):
    """Whether the first program a line runs is named for answering prompts (ANSWERING), and
    not for training nor told how long to train (TRAINING_NAME, TRAINING_LENGTH)."""
    m = PROGRAM_NAME.search(text)
    if not m:
        return False
    name = m.group(1) or m.group(2)
    return (
        ANSWERING.search(name) is not None
        and TRAINING_NAME.search(name) is None
        and ("--" not in text or TRAINING_LENGTH.search(text) is None)
    )


RELATIVE = re.compile(r"[A-Za-z_][\w.-]*(?:/[\w.-]+)*/?")
# A file or folder under the working directory, two parts or more (`maps/coast.shp`,
# `runs/$MODEL/t.csv`). (A bare word as often names a setting.)
# File names matched by a pattern (`*.txt`, `part-*.jsonl.gz`): letters, dots, dashes and stars.
GLOB_FILES = re.compile(r"[\w.*-]+")
RELATIVE_PLACE = re.compile(r"[A-Za-z_][\w.-]*(?:/[\w.${}-]+)+/?")
CHECKPOINT_STARTS = {"--save", "--chec", "--ckpt", "--dump"}  # a literal test first
RESUME_FLAGS = {"--resume", "--auto-resume", "--auto_resume", "--continue_training",
                "--continue-training", "--cont_training", "--cont-training"}  # fmt: skip
# A trainer told to resume from a checkpoint: a flag (`--resume_from_checkpoint true`), or the
# place it also saves to. Another path is a checkpoint it starts from, which says no more.
# A trainer's own newest checkpoint, as it names it (`last.ckpt`, `last-v1.ckpt`, `last.pt`).
OWN_LAST_CHECKPOINT = re.compile(r"last(?:[-_.][\w=.-]*)?$", re.IGNORECASE)
# Options naming a folder a program writes its run into (with WRITES: out, save, dump …).
WRITES_TO_PLACE = re.compile(r"root[-_]?dir|log[-_]?dir|logging[-_]dir|ckpt[-_]dir|checkpoint")
RESUME_FROM = {"--resume_from_checkpoint", "--resume-from-checkpoint",
               # Lightning's: `last` is the latest checkpoint it saved
               "--ckpt_path", "--ckpt-path"}  # fmt: skip
# A file the script tests for (`if test -e state.cpt`, `if [ -f "$CKPT" ]`) and, when it is
# there, hands to a restart option (`mdrun --restart state.cpt`, `-cpi`, `--resume`), else
# starting afresh: the program's own checkpoint, which the job resumes from.
TESTS_FOR_FILE = re.compile(
    r"""^\s*(?:if|elif)\s+(?:test\s+-[ef]\s+|\[\[?\s+-[ef]\s+)["']?([^\s"';\]]+)["']?"""
)
# A data file the script stops without (`if [ ! -f data/x.npz ]; then … exit 1; fi`, or
# `[ -f F ] || exit 1`): made before the job (by another job, a download), it is read.
REQUIRES_FILE = re.compile(
    r"""^\s*if\s+(?:test\s+!\s+-[ef]\s+|\[\[?\s+!\s+-[ef]\s+)["']?([^\s"';\]]+)["']?"""
)
REQUIRED_OR_EXIT = re.compile(
    r"""^\s*(?:test\s+-[ef]\s+|\[\[?\s+-[ef]\s+)["']?([^\s"';\]]+)["']?\s*(?:\]\]?\s*)?\|\|\s*"""
    r"""(?:\{[^}]*?)?exit\s+[1-9]"""
)
FAILS = re.compile(r"^\s*exit\s+[1-9]")
# `NAME=--flag` (quoted or not): a variable holding one option.
FLAG_ASSIGNMENT = re.compile(r"""([A-Za-z_]\w*)=["']?(--?[A-Za-z][\w-]*)["']?""")
RESTART_OPTION = re.compile(r"--?(?:restart|resume|continue|cpi)(?:[-_](?:from|file))?")
# Flags that make a program train or run on data it makes up itself (PyTorch's and timm's
# --dummy/--synthetic, Megatron's --mock-data, DeepSpeed's --dummy-data).
SYNTHETIC = re.compile(
    r"--(?:use[-_])?(?:synthetic|dummy|mock|fake)(?:[-_]data(?:set)?)?(?:=(?:1|true|yes|True))?"
)

# The Hub's downloader, and torchtune's and LitGPT's, which take the same repository id; also
# run by a tool runner at a version (`uvx hf@latest download`, `uvx huggingface-cli@0.30 download`).
HF_DOWNLOAD = re.compile(r"\b(?:huggingface-cli|hf|tune|litgpt)(?:@[\w.-]++)?\s+download\s")
# Files named after the repository (`hf download org/x model.safetensors config.json`): only
# those are fetched. A file's name has an extension (a stray word, a glob or a variable is no file).
HF_FILE_PART = re.compile(r"[\w-][\w.-]*+")
# Where a downloader puts what it fetched: a local copy of an input, not an output.
DOWNLOAD_TO = {
    "--local-dir",
    "--output-dir",
    "--output_dir",
    "--checkpoint_dir",
    "--checkpoint-dir",
}
# A Hub repository cloned with git (`git lfs clone https://huggingface.co/datasets/org/x`).
HF_CLONE = re.compile(
    r"\bgit\s+(?:lfs\s+)?clone\s[^;&|]*?https?://huggingface\.co/(datasets/)?"
    r"([A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,95}?)(?:\.git)?/?(?=[\s;&|]|$)"
)
# A Hub repository's page (or a folder of it) as an option's value; a file of it
# (`…/resolve/main/x.bin`, `…/blob/…`) is fetched as a URL.
HF_PAGE_OPTION = re.compile(
    # (the option from where its word starts: tried inside a long word, `[\w.-]+` would read
    # the rest of it from every position)
    r"""(?<![\w.-])(--?[\w.-]+)[= ]["']?https?://huggingface\.co/(datasets/)?"""
    r"""([A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,95}?)(?:\.git)?(?:/tree/[^\s"']*)?/?(?=["'\s;&|]|$)"""
)
# Servers that take the model as their first argument.
# Words that end one command of a line (what follows is the shell's next command).
SHELL_BREAKS = {"&&", "||", ";", "|", "&"}
SERVERS = {"vllm", "sglang", "trtllm-serve"}
SERVE_OPTIONS_FIRST = re.compile(r"\b(?:vllm|trtllm-serve|sglang)\s+serve\s+-")
# Options of `vllm serve` that take no value: the word after one can be the model.
SERVE_SWITCHES = {
    "--trust-remote-code", "--enforce-eager", "--enable-prefix-caching",
    "--no-enable-prefix-caching", "--enable-chunked-prefill", "--enable-lora",
    "--disable-log-requests", "--disable-log-stats", "--disable-custom-all-reduce",
    "--enable-auto-tool-choice", "--enable-reasoning", "--skip-tokenizer-init",
    "--disable-sliding-window", "--enable-expert-parallel", "--disable-frontend-multiprocessing",
    "--async-scheduling", "--enable-sleep-mode", "--disable-fastapi-docs", "--use-v2-block-manager",
}  # fmt: skip
# A variable named for the model a server loads (MODEL, MODEL_PATH, CKPT, HF_MODEL_ID …).
SERVED_MODEL = re.compile(r"(?:^|_)(?:MODEL|CKPT|CHECKPOINT|WEIGHTS)(?:_|$)", re.IGNORECASE)
SERVE_MODEL = re.compile(r"\b(?:vllm|trtllm-serve|sglang)\s+serve\s+(\"[^\"]+\"|'[^']+'|[^\s-]\S*)")
# Options of the Hub's command line that take a value (the repository is the first other word).
HF_VALUED = {"--local-dir", "--cache-dir", "--revision", "--repo-type", "--include", "--exclude",
             "--token", "--local-dir-use-symlinks", "--max-workers", "--commit-message",
             "--output-dir", "--hf-token", "--ignore-patterns", "--access_token",
             "--checkpoint_dir"}  # fmt: skip
HF_UPLOAD = re.compile(r"\b(?:huggingface-cli|hf)(?:@[\w.-]++)?\s+upload\s")
PY_CALL = re.compile(
    r"\b(snapshot_download|from_pretrained|load_dataset|push_to_hub)\(\s*(?:repo_id\s*=\s*)?"
    r"(?:[\"']([^\"'\s]{1,200})[\"']"
    # …or the repository an environment variable holds (`os.environ['ADAPTER_REPO']`,
    # `os.getenv("MODEL_ID")`), known when the file gives the variable a value
    r"|os\.(?:environ\[|environ\.get\(|getenv\()\s*[\"'](\w{1,100})[\"'])"
)
# One file of a Hub repository (`hf_hub_download('org/name', 'weights.pt')`, or by keywords).
HF_FILE_CALL = re.compile(
    r"\bhf_hub_download\(\s*(?:repo_id\s*=\s*)?[\"']([^\"'\s]{1,200})[\"']\s*,\s*"
    r"(?:filename\s*=\s*)?[\"']([^\"'\s]{1,200})[\"']"
)
# …and its keyword arguments that say where the file is (a dataset's or a Space's repository,
# a folder in it).
HF_REPO_TYPE = re.compile(r"\brepo_type\s*+=\s*+[\"'](dataset|space)[\"']")
HF_SUBFOLDER = re.compile(r"\bsubfolder\s*+=\s*+[\"']([^\"'\s]{1,200})[\"']")
# …a call whose arguments start on the next line (`from_pretrained(\n    "org/name",`).
PY_OPEN_CALL = re.compile(r"\b(?:snapshot_download|from_pretrained|load_dataset|push_to_hub)\(\s*$")
# Python that writes a file or folder it names (`image.save('cat.png')`,
# `model.save_pretrained("out/model")`, `df.to_csv("scores.csv")`): the name is its first argument.
PY_SAVE = re.compile(
    r"\.(?:save|savefig|save_pretrained|to_csv|to_parquet|to_json)\(\s*[\"']([^\"'\s{}]{1,200})[\"']"
)
# …and a file it opens to read (`open("../split.json")`, `open('x.csv', 'r')`), by its name.
PY_READ = re.compile(
    r"\bopen\(\s*[\"']([^\"'\s{}]{1,200}\.\w{1,8})[\"']\s*(?:,\s*(?:mode\s*=\s*)?[\"']r[bt]?[\"']\s*)?\)"
)
SETTINGS_OR_CODE = re.compile(r"\.(?:ya?ml|toml|ini|cfg|conf|txt|md|py|sh|env)$", re.IGNORECASE)
DATASET_REPO = re.compile(r"repo_type\s*=\s*[\"']dataset[\"']|--repo-type[= ]dataset")
FETCH_TOOLS = r"wget|curl|axel|aria2c|gdown"
FETCH = re.compile(
    # (the variables set for the command by name, `A=1 B=2 wget …`: a name holds no `=`, so a
    # run of `a=b=c` words is split one way only, where `\S+=` tried every split)
    rf"(?:^|&&|\|\||;|\bthen\b|\bdo\b)\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:sudo\s+)?({FETCH_TOOLS})\s"
)
URL = re.compile(r"(?:https?|ftp)://[^\s\"'|;&<>)]{1,400}")
# Fetched to install something, not data: scripts, notebooks, packages, keys, installers.
NOT_DATA_URL = re.compile(
    r"\.(?:sh|py|ipynb|deb|rpm|whl|pem|crt|gpg|asc|key|repo|list|exe|msi|dmg|pkg)(?:\?|$)|"
    r"(?:get\.docker|repo\.anaconda|conda\.io|astral\.sh|bun\.sh|rustup|nodesource|"
    r"developer\.download\.nvidia|deb\.|apt\.|pypi\.|download\.pytorch|raw\.githubusercontent|"
    # Google's software downloads (the Cloud SDK, Go, Chrome), never a job's data
    r"dl\.google\.com/|"
    r"github\.com/[^/]+/[^/]+/releases|install|get-pip|miniconda|miniforge|"
    # a repository's source at a version tag (`…/archive/refs/tags/v0.23.1.tar.gz`): a release
    # of a program, unpacked and built or run (a dataset's archive is of a branch, `master.zip`)
    r"github\.com/[^/]+/[^/]+/archive/(?:refs/tags/)?v?\d+(?:\.\d+)+|"
    # a build for one platform (`awscli-exe-linux-x86_64.zip`, `tool_linux_amd64.tar.gz`): a
    # program's binary, never a job's data; a data file by its kind (`outputs_linux_x64.h5`,
    # results of a run on that platform) is data whatever its name says
    r"(?:linux|darwin|macos|windows)[-_](?:x86_64|x86-64|amd64|arm64|aarch64|x64)"
    r"(?![^/?#]{0,200}\.(?:csv|tsv|parquet|arrow|feather|npz|npy|h5|hdf5|nc|zarr|geojson|jsonl?|"
    r"pt|pth|pickle|pkl|safetensors|ckpt|gguf)(?:\.gz)?(?:[?#]|$))(?:[./?_-]|$)|"
    # Apache's release mirrors hold software (Spark, Hadoop, Maven), never a job's data
    r"(?:archive|downloads|dlcdn|www)\.apache\.org/dist/|dlcdn\.apache\.org/)",
    re.IGNORECASE,
)
# A program named for fetching web pages, and the options that give it the site it reads.
# (not `spider`: Spider is also a text-to-SQL benchmark, `spider_eval.py --url` a model's server)
CRAWLER_PROGRAM = re.compile(r"(?:^|[_-])(?:crawl|crawler|scrape|scraper)(?:[_.-]|$)")
# A server's API or monitoring endpoint (`https://api.openai.com/v1`, `…:8080/metrics`) and a
# host the file leaves to run time (`http://$HEAD_IP:8080`): no site whose pages are read.
NOT_A_SITE = re.compile(
    r"^[a-z]+://(?:api\.|[^/]*\$)|/(?:v\d{1,3}|api|metrics|health|healthz)/?(?:$|[?#])",
    re.IGNORECASE,
)
SITE_OPTIONS = {"--url", "--urls", "--site", "--site-url", "--site_url", "--target-url",
                "--target_url", "--start-url", "--start_url", "--start-urls", "--start_urls",
                "--seed-url", "--seed_url"}  # fmt: skip
# …except a data file a repository keeps and the job fetches by its raw URL (Alpaca's
# `alpaca_data.json`, a CSV of labels): a data file's extension, not a script's.
RAW_DATA_FILE = re.compile(
    r"^https?://raw\.githubusercontent\.com/[^?#\s]*\.(?:json|jsonl|csv|tsv|parquet)(?:[?#]|$)",
    re.IGNORECASE,
)
# The machine itself (a health check, a local server's API): never data, wherever it is named.
LOOPBACK = re.compile(
    r"^[a-z][\w+.-]*://(?:[^@/\s]*@)?(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])(?:[:/?#]|$)",
    re.IGNORECASE,
)
FETCHERS = re.compile(FETCH_TOOLS)
DETACHED = {"-d", "--detach", "-dit", "-itd", "-di", "-id", "-dt", "-td"}
# A fetch inside `$(…)` that is part of another URL (`https://host/release/$(curl -s
# https://host/release/stable.txt)/bin/tool`): it looks up a piece of that URL, a version or a
# path, and reads no data of the job's.
URL_LOOKUP = re.compile(rf"(?:https?|ftp)://[^\s\"'$]*(\$\((?:{FETCH_TOOLS})\s[^()]*\))")
# A fetch that keeps the file under its own name in the folder it runs in: wget's and gdown's
# default, curl's with -O (`-LJO`, `--remote-name`); not one told where to save (`-O f`, `-P d`,
# `-o f`, `--output`), nor curl without -O (it writes to its output stream).
FETCH_NAMED_ELSEWHERE = re.compile(
    r"\s(?:-[a-zA-Z]*[OoP]|--output\S*|--directory-prefix\S*)(?=[\s=]|$)"
)
CURL_KEEPS_NAME = re.compile(r"\s(?:-[a-zA-Z]*O[a-zA-Z]*|--remote-name(?:-all)?)(?=\s|$)")
# A download saved as a package or an installer (`wget -O vscode.deb '…?build=stable'`): the
# machine's setup, whatever its URL looks like.
SAVED_AS_PACKAGE = re.compile(
    r"\s(?:-O|-o|--output(?:-document)?)(?:=|\s*)[\"']?[^\s\"']*\.(?:deb|rpm|whl|sh|run|appimage|pkg)"
    r"[\"']?(?:\s|$)",
    re.IGNORECASE,
)
# A download saved as a key or certificate (`curl -fsSL https://download.docker.com/linux/debian/gpg
# -o /etc/apt/keyrings/docker.asc`) or handed to the keyring (`| gpg --dearmor`, `| apt-key add -`):
# the package manager's trust in a repository, set up before installing, never data. (The saved
# name is taken whole, possessively, then its ending looked at: no backtracking over a long word.)
SAVED_AS_KEY = re.compile(
    r"\s(?:-O|-o|--output(?:-document)?)(?:=|\s*+)[\"']?[^\s\"']*+(?<=\.gpg|\.asc|\.pem|\.crt|\.key)"
    r"[\"']?(?:\s|$)|\|\s*+(?:sudo\s++)?(?:gpg|apt-key)\s",
    re.IGNORECASE,
)
# Data versioned with DVC: moved from or to a remote the file does not name.
DVC = re.compile(r"\bdvc\s+(?:pull|push|fetch|exp\s+(?:push|pull)|get|import)\b")
# …unless the script adds the remote itself (`dvc remote add -f gcs gs://bucket/dvc`): then a
# `dvc pull`/`fetch` reads that store and a `dvc push` writes it (`-r NAME`, or the one remote).
DVC_REMOTE_ADD = re.compile(
    r"\bdvc\s+remote\s+add((?:\s+-[\w-]+)*)\s+(\w[\w.-]*)\s+[\"']?([^\s\"';|&]+)"
)
# The text before a command on its line when that command is only printed, as an echo or
# printf's argument (`echo "Ensure: dvc remote add …"`); a quoted argument is text, whatever
# it holds (`echo "Storage | dvc remote add …"`). (searched over at most 300 characters)
PRINTED_BEFORE = re.compile(
    r"(?:^|[;&|])\s*(?:echo|printf)\s(?:[^;&|\"']|\"[^\"]*\"|'[^']*')*(?:\"[^\"]*|'[^']*)?$"
)
DVC_REMOTE_OPTION = re.compile(r"\s(?:-r|--remote)(?:=|\s+)([\w.-]+)")
KAGGLE = re.compile(r"\bkaggle\s+datasets\s+download\s")
COPY_TOOL = re.compile(
    r"\b(?:aws\s+s3\s+(?:cp|sync|mv)|gsutil\s+(?:-m\s+)?(?:cp|rsync|mv)|gcloud\s+storage\s+"
    r"(?:cp|rsync|mv)|rclone\s+(?:-[\w-]+(?:=\S+|\s+(?:\"[^\"]*\"|'[^']*'|[^\s\"'-]\S*))?\s+)*?"
    r"(?:copy|sync|move|copyto)|azcopy\s+(?:copy|sync)|"
    r"s5cmd\s+(?:cp|sync|mv))\s"
)
# Another machine's path as rsync and scp write it: `host:path`, `user@host:path` (not a URL).
REMOTE_HOST = re.compile(r"(?:[\w.${}-]+@)?[\w.${}-]+:(?!//)[^\s\"';|&]*")
# An rclone remote: `name:path` (any name the user gave the remote in rclone's config).
RCLONE_REMOTE = re.compile(r"[A-Za-z0-9_][\w.-]*:(?!//)[^\s\"';|&]*")
# A remote the script itself defines (`rclone config create osn s3 provider=AWS
# endpoint=https://host/`): where its `osn:path` is, as a path-style URL on that endpoint, or
# an AWS S3 / Google Cloud Storage bucket when no endpoint is given.
RCLONE_CREATE = re.compile(r"\brclone\s+config\s+create\s+([\w.-]+)\s+([\w-]+)([^\n]*)")
RCLONE_ENDPOINT = re.compile(r"\bendpoint(?:=|\s+)[\"']?(https?://[^\s\"']+)")
RCLONE_SCHEMES = {"s3": "s3://", "gcs": "gs://", "google cloud storage": "gs://"}
REMOTE = re.compile(rf"(?:{URI})|https://[\w.-]+\.blob\.core\.windows\.net/\S+|[\w-]+:[\w./-]+")
# A program's argument naming what it reads (`fq_dir=`, `input_path=`, `reads=`).
URI_ARGUMENT = re.compile(r"(?:in|inputs?|data|datasets?|fq|fastq|reads|src|source)(?:_\w+)?")
# `key=URI` naming the folder a program writes its results under (`base_output_directory=`,
# `output_dir=`), and the switch that makes it save checkpoints there (MaxText's
# `enable_checkpointing=true`, `checkpoint_period=500`).
OUTPUT_ARGUMENT = re.compile(r"(?:base_)?output_dir(?:ectory)?")
SAVES_ARGUMENT = re.compile(
    r"(?:enable_checkpointing|save_checkpoints?)=(?:true|1)"
    # (`checkpoint_every_n_steps=500`, fairseq2's; `checkpoint_interval=2000`)
    r"|checkpoint_(?:period|every|interval)(?:_n)?(?:_steps|_epochs|_iters)?=\d+",
    re.IGNORECASE,
)
# A configuration override: `[+]key.sub=value`.
# (also as a dotted option: OLMo-core's `--dataset.paths=[…]`, `--model.model_path=…`)
PRETRAINED_HUB = re.compile(r"^[\w.+-]+=[\"']?//pretrained/([^\s\"']+?)[\"']?$")
OVERRIDE = re.compile(r"^(?:--)?\+{0,2}([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)=(\S+)$")
OVERRIDE_CHECKPOINT = {"ckpt_path", "checkpoint_dir", "ckpt_dir", "checkpoint_path", "save_dir",
                       # Composer's and llm-foundry's, NeMo's experiment folder
                       "save_folder", "exp_dir",
                       # verl's trainer folder, which it resumes from
                       "default_local_dir"}  # fmt: skip
# …and a place under a section named for checkpoints (`checkpoint.dir=`, `checkpointing.save=`).
CHECKPOINT_SECTIONS = {"checkpoint", "checkpointing", "ckpt", "checkpoints"}
CHECKPOINT_PLACES = {"dir", "path", "save", "folder", "root", "output_dir", "save_path"}
OVERRIDE_DATA = {"train_files", "val_files", "test_files", "train_file", "val_file",
                 "train_path", "data_path", "train_data_path", "dataset_path",
                 # a data module's folder (`data.data_dir=/scratch/x`)
                 "data_dir"}  # fmt: skip
OVERRIDE_MODEL = {"model_name_or_path", "pretrained_model_name_or_path", "model_path"}
# First folders of a relative model path that are the job's own (`checkpoints/run/actor_hf`),
# not a Hub id's organisation.
LOCAL_MODEL_FOLDERS = {"checkpoints", "checkpoint", "ckpts", "ckpt", "models", "outputs", "output",
                       "runs", "saves", "save", "exp", "experiments"}  # fmt: skip
# Where a trainer puts what it hands back (`trainer.export_path=`, `model.export_dir=`).
OVERRIDE_OUTPUT = {"export_path", "export_dir", "save_path",
                   # where a sampler's designs go (RFdiffusion's `inference.output_prefix=`)
                   "output_prefix"}  # fmt: skip
# Sections of a configuration whose paths are written (`output.netcdf=out/fc.nc`).
OUTPUT_SECTIONS = {"output", "outputs"}
# …whose keys by these names are what the output is made from: read, not written.
READ_UNDER_OUTPUT = {"template", "templates", "config", "settings", "cfg"}
# What a program is given to read, by a key named for its input (`inference.input_pdb=`,
# `data.input_path=`), and the weights a sampler loads by a key naming a checkpoint
# (`inference.ckpt_override_path=m.pt`, `model.weights=w.pt`) on a line that does not train.
OVERRIDE_INPUT = re.compile(r"input(?:_\w+)?")
OVERRIDE_WEIGHTS = re.compile(r"(?:\w+_)?(?:ckpt|checkpoint|weights)(?:_\w+)?")
# A trainer told to pick up from its latest checkpoint (`trainer.resume_mode=auto`).
OVERRIDE_RESUME = {"resume_mode", "resume"}
RESUMES = {"latest", "auto", "resume_path", "last", "true"}
# A trainer that saves every N steps or epochs keeps its checkpoints in its output directory.
SAVES_IN_LINE = re.compile(
    # (also a grouped option's last part: `--train.save_steps`)
    r"(?:--|\.)save[-_](?:s|interval|every|frequency)|--saveckp[-_]freq|_per_checkpoint|"
    r"checkpoint[-_](?:every|interval)"
)
# (quoted too, as a word of its own: `"++args.data_path=${DATA_PATH}"`)
OVERRIDE_IN_LINE = re.compile(r"(?:^|\s)[\"']?(?:--)?\+{0,2}[A-Za-z_][\w-]*\.[\w.-]*=")
# A trainer told to keep no checkpoints (`--no_save`, fairseq's `--no-save`).
NO_SAVE = {"--no_save", "--no-save"}
SAVES_EVERY = {"--save_steps", "--save-steps", "--save_strategy", "--save-strategy",
               # NVIDIA's examples, and trainers that say it the other way round
               "--num_steps_per_checkpoint", "--num-steps-per-checkpoint",
               "--checkpoint_every", "--checkpoint-every", "--checkpoint_interval",
               "--checkpoint-interval", "--save_interval", "--save-interval", "--save_every",
               "--save-every",
               # open_clip's, a checkpoint every N epochs under its --logs folder
               "--save-frequency", "--save_frequency",
               # DINO's (and iBOT's, MSN's…): a checkpoint every N epochs in --output_dir
               "--saveckp_freq", "--saveckp-freq"}  # fmt: skip
# Container runtimes the cluster starts outside pyxis and SkyPilot.
# (after the runtime's own options, which come before the command: `apptainer -d exec`)
APPTAINER = re.compile(
    r"\b(?:singularity|apptainer)\s+(?:-(?:d|q|s|v|-debug|-quiet|-silent|-verbose|-nocolor)\s+)*"
    r"(?:exec|run|shell|instance\s+start)\s"
)
DOCKER_RUN = re.compile(r"\b(?:docker|podman|podman-hpc|nvidia-docker)\s+run\s")
ENROOT = re.compile(r"\benroot\s+start\s")
PULL = re.compile(r"\b(?:singularity|apptainer)\s+pull\s")
SHIFTER = re.compile(r"\bshifter\s")
IMAGE_FILE = re.compile(r"\.(?:sif|simg|sqsh)$")
# A container runtime's options giving the container the node's GPUs.
GPU_FLAGS = {"--nv", "--rocm", "--gpus", "--nvccli"}
# Apptainer's and Singularity's short options that are switches, not a value's name as Docker's
# are (`-u` --userns, `-c` --contain, `-e` --cleanenv, `-w` --writable, `-p` --pid):
# `singularity run -u -B a:b IMAGE` runs IMAGE.
APPTAINER_VALUED = CONTAINER_VALUED - {"-u", "-c", "-e", "-w", "-p"}
# A variable set to the directory the job was submitted from (`wd=$(pwd)`, `WD=$PWD`,
# ``D=`pwd` ``), and a mount source that is one.
SUBMIT_DIRECTORY = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=["']?(?:\$\(pwd\)|`pwd`|\$\{?PWD\}?)["']?[ \t]*(?:#.*)?$""",
    re.MULTILINE,
)
# A variable set to one of the script's arguments (`MODEL_ID=$1`, `export X="${2}"`).
# (the name, then the argument's position; a function's own, `local data="$1"`, the same)
ARGUMENT_VARIABLE = re.compile(
    r"""^[ \t]*(?:(?:export|local|declare)[ \t]+)?([A-Za-z_]\w*)=["']?\$\{?([0-9])\}?["']?[ \t]*"""
    r"""(?:;[ \t]*shift\b[ \t]*)?(?:#.*)?$""",  # (`local id="$1"; shift`: the same)
    re.MULTILINE,
)
# A variable emptied on a line of its own (`CHECKPOINT_PATH=""`), to be filled by the script's
# own parsing of its arguments (`--checkpoint) CHECKPOINT_PATH="$2"`).
EMPTIED = re.compile(r"""^[ \t]*([A-Za-z_]\w*)=(?:""|'')[ \t]*$""", re.MULTILINE)
# Variables the script sets to a command's output (`MODEL_NAME=$(grep … model.yaml)`): known
# when the job runs, from what the command reads; not a value given at launch.
COMPUTED = re.compile(
    r"""^[ \t]*(?:(?:export|local|readonly)[ \t]+)?([A-Za-z_]\w*)=["']?(?:\$\((?!\()|`)""",
    re.MULTILINE,
)
DATED = re.compile(
    r"""^[ \t]*(?:(?:export|local|readonly)[ \t]+)?([A-Za-z_]\w*)=["']?(?:\$\(|`)[ \t]*date\b""",
    re.MULTILINE,
)
# Files a step writes by redirecting its output (`cat parts/* > train.jsonl`).
REDIRECTED = re.compile(r"""(?<![0-9&])>>?[ \t]*["']?(?:\./)?([\w${}./-]+\.[A-Za-z]\w*)""")
# A variable set to what a command prints (`pw=$(uuidgen)`): a value the job makes itself, unless
# the command reads it from a file or a secret store (`$(cat ~/.token)`, `$(vault kv get …)`).
GENERATED = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=["']?(?:\$\(|`)"""
    r"""(?!\s*(?:<|(?:cat|jq|yq|aws|gcloud|az|vault|pass|op|kubectl|security|gpg|sops)\s))""",
    re.MULTILINE,
)
SUBMIT_VARIABLE = re.compile(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)")
# Cheap tests before the patterns above (a literal search is fast on a long line).
COPY_WORDS = re.compile(r"s3|gsutil|gcloud|rclone|azcopy|s5cmd")
RUNTIME_WORDS = re.compile(r"singularity|apptainer|docker|podman|enroot")
# Folders a container image keeps its own code and files in.
IMAGE_FOLDERS = re.compile(r"^/(?:workspace|opt|usr|app|code|root|etc)(?:/|$)")
# The node's own disk or memory: gone when the job ends. ($SNIC_TMP: the job's folder on the
# node's disk on the Swedish (NAISS/SNIC) clusters.)
NODE_LOCAL = re.compile(
    r"^(?:/tmp|/dev/shm|/ramdisk|\$\{?(?:TMPDIR|SLURM_TMPDIR|TMP|LOCAL_SCRATCH|LOCALSCRATCH|SNIC_TMP)\}?)(?:/|$)"
)
# A Python environment's library folder: a file put there is a library installed, not output.
PYTHON_LIBRARY = re.compile(r"/(?:site|dist)-packages/")
# The temporary folder Slurm makes for each job on the node and removes when it ends: what a
# program writes there alone is not delivered (unless the job copies it out).
JOB_TEMPORARY = re.compile(r"^\$\{?(?:TMPDIR|SLURM_TMPDIR)\}?(?:/|$)")
# Tools that only move data (copies, downloads): a later upload's source is not theirs to write.
# FFmpeg's options that take no value (the word after them may be the output file).
FFMPEG_FLAGS = {"-y", "-n", "-an", "-vn", "-sn", "-dn", "-shortest", "-hide_banner", "-nostdin",
                "-stats", "-nostats", "-re", "-copyts"}  # fmt: skip
# …and a relative file it names (`part-$SLURM_ARRAY_TASK_ID.mp4`, `Ek*.jpg`, `f_%04d.png`).
MEDIA_FILE = re.compile(r"[\w.*$%{][\w.*${}%-]*+(?:/[\w.*${}%-]++)*+")
# Programs that pack or compress files (what they pack is still the job's data).
ARCHIVERS = {"tar", "htar", "zip", "gzip", "pigz", "zstd", "xz", "bzip2"}
MOVES_ONLY = {"rclone", "aws", "gsutil", "gcloud", "azcopy", "s5cmd", "wget", "curl"}
# Copies on the machine: they write only what they are given, no program's results.
COPIES = {"cp", "rsync", "scp"}
# Where a step of the job writes: a later upload of it sends the job's own files.
WRITTEN_PATHS = ("output.artifacts", "request.checkpoint_location", "_save", "_download")
# A project's own files, not its data: documents, licences, job scripts, build settings and
# package lists (`README.md`, `license.lic`, `job.slurm`, `Makefile.inc`, `requirements.txt`).
PROJECT_FILE = re.compile(
    r"^(?:readme|licen[cs]e|copying|changelog|notice|authors)(?:\.(?:md|txt|rst))?$|"
    r"^requirements[\w.-]*\.txt$|^(?:gnu)?makefile\.|"
    r"\.(?:md|rst|lic|slurm|sbatch|sub|pbs|qsub|lsf|job|mk|inc|cmake)$",
    re.IGNORECASE,
)
# Code and settings copied along with data are not data.
CODE_FILE = re.compile(r"\.(?:py|sh|ya?ml|cfg|toml|ini|conf|json)$")
# …except a tokenizer's own files, named for it (`item.tokenizer.nixpkgs.json`, `vocab.json`,
# `merges.txt`): what the program reads with its data, not its settings.
TOKENIZER_WORDS = ("tokenizer", "tokeniser", "vocab", "merges")


def _settings_file(path):
    """A copied file that is the program's code or settings (CODE_FILE), not a tokenizer's."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return bool(CODE_FILE.search(name)) and not any(w in name.lower() for w in TOKENIZER_WORDS)


# Words in the name of a file of settings (`config.json`, `ds_config_zero3.json`, `params.json`,
# `training_args.json`).
SETTINGS_WORDS = ("config", "setting", "param", "args", "option")
# A Python or conda environment packed into one file (`venv310.tar`, `myenv.tar.gz`, conda-pack's
# `env.tar.gz`), copied to the node and unpacked there: the job's software, not its data.
# …by its file name: an archive (PACKED_ARCHIVE) named for an environment (ENVIRONMENT_NAME), as
# `venv310.tar`, `env.tar.gz`, `my-env.tgz`, `conda-pack.tar.gz`; checked in two steps, so a long
# name is not searched once per `env` in it.
PACKED_ARCHIVE = re.compile(r"\.(?:tar(?:\.(?:gz|bz2|xz|zst))?|tgz)$", re.IGNORECASE)
ENVIRONMENT_NAME = re.compile(
    r"^(?:venv\w*|virtualenv\w*|conda[-_]?pack\w*|env\w*|[\w.]+[-_](?:venv|env))$", re.IGNORECASE
)
BIND_OPTIONS = {"-B", "--bind", "-v", "--volume", "--container-mounts", "--mount"}
SCRIPT_FILE = re.compile(r"\.(?:py|sh|jl|R|lua)$")
PICARD_KEYS = {"INPUT": "data.inputs", "I": "data.inputs", "REFERENCE_SEQUENCE": "data.inputs",
               "OUTPUT": "output.artifacts", "O": "output.artifacts",
               "METRICS_FILE": "output.artifacts", "M": "output.artifacts"}  # fmt: skip
BEAGLE_FILE = re.compile(r"[\w${}./~-]+")
# Programs whose operands are `key=value` words, by program name: Beagle (genotype phasing)
# and dd (a block copy: `if=` is read, `of=` written; devices such as /dev/urandom are not data).
KEY_VALUE_PROGRAMS = {
    "beagle": {"gt": "data.inputs", "ref": "data.inputs", "map": "data.inputs",
               "out": "output.artifacts"},
    "dd": {"if": "data.inputs", "of": "output.artifacts"},
}  # fmt: skip
REQUEUE_SELF = re.compile(r"\bscontrol\s+requeue\s+[\"']?\$\{?SLURM_JOB_?ID\}?")
DMTCP_INTERVAL = re.compile(
    r"\b(?:dmtcp_launch|dmtcp_coordinator|start_coordinator)\b[^;&|]*?\s(?:-i|--interval)[= ]+(\d+)\b"
)
# yacs settings: an upper-case dotted key followed by its value (`MODEL.WEIGHTS /w.pkl`).
YACS_KEY = re.compile(r"[A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)+|OUTPUT_DIR")
YACS_IN_LINE = re.compile(r"\.(?:WEIGHTS|PRETRAINED)\s|\bOUTPUT_DIR\s+[/$~.]|DATA_DIR\s+[/$~.]")
# Options that hand a program a key (`--api-key`, `--hf_token`, `--logger.wandb.key`), and the
# values that name it without giving it: an unset variable or a placeholder to fill.
SECRET_OPTION = re.compile(r"[-_.](?:api[-_]?key|key|token|secret|password)$", re.IGNORECASE)
SECRET_WORDS = re.compile(r"key|token|secret|password", re.IGNORECASE)
# An environment variable's name, as a container's `--env NAME=…` gives it.
ENV_NAME = re.compile(r"[A-Za-z_]\w*+")
# A value that is a setting, not a key: on or off, or a number (`-e USE_AUTH_TOKEN=1`).
SWITCH_OR_NUMBER = re.compile(r"true|false|yes|no|on|off|[\d.]+", re.IGNORECASE)
# A variable given a file's contents (`HF_TOKEN=$(cat "$TOKEN_FILE")`, `KEY=$(< key.txt)`).
KEY_FROM_FILE = re.compile(
    r"""^\s*(?:export\s+)?([A-Za-z_]\w*)=["']?\$\(\s*(?:cat\s+|<\s*)["']?([^\s"'()]+)["']?\s*\)["']?\s*$"""
)
# A key written into the script itself (`export WANDB_API_KEY="cc08…"`, `HF_TOKEN=hf_x`): a literal
# value, not a variable's or a command's, one word (no path: a key file is read elsewhere).
LITERAL_KEY = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=(["']?)([^\s"'$`;\\()<>|&]+)\2[ \t]*(?:[;#]|$)"""
)
# …not a setting that only mentions a key (`MAX_TOKEN=512`, `USE_AUTH_TOKEN=true`, `KEY_DIM=64`),
# nor a place (`HF_TOKEN_PATH=token.txt`: the file is the key, read where it is used).
NOT_A_KEY_NAME = {"path", "file", "dir", "folder", "name", "size", "len", "length", "num", "max",
                  "min", "dim", "count", "budget", "heads", "use", "limit"}  # fmt: skip
# The key piped into a registry login (`echo "$CR_PAT" | docker login … --password-stdin`).
REGISTRY_KEY_PIPED = re.compile(r"""(?:echo|printf\s+%s)\s+["']?(\$\{?\w+\}?)["']?\s*\|""")
# A W&B API key written out (40 hexadecimal digits, or a newer key's `local-…` form).
WANDB_KEY = re.compile(r"[0-9a-f]{40}|local-[0-9a-f]{40,}")
SECRET_VALUE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?|\{\s*(\w+)\s*\}|<(\w+)>")
# samtools commands that read the file they are given first, and their options with a value.
SAMTOOLS_READS = {"sort", "view", "index", "flagstat", "idxstats", "stats", "depth", "faidx",
                  "fastq", "fasta", "coverage", "calmd", "markdup", "fixmate"}  # fmt: skip
SAMTOOLS_VALUED = {"@", "O", "T", "m", "l", "q", "f", "F", "G", "L", "t", "R", "x", "s", "N",
                   "U", "X", "k", "e", "d", "r", "-threads", "-reference", "-output-fmt"}  # fmt: skip
# CDO (`cdo [options] operator[,params] [-operator[,params] …] infiles outfile`): its options
# that take a value (`-f nc4`, `-z zip`, `-P 8`), and the operators that write no file (they
# print what they read: `cdo griddes in.nc > grid.txt`, `cdo sinfo in.nc`).
CDO_VALUED = {"-f", "-z", "-P", "-b", "-t", "-k", "-m", "-g", "--worker", "--precision",
              "--percentile", "--timestat_date"}  # fmt: skip
CDO_PRINTS = re.compile(
    r"(?:s?info[nv]?|show\w*|griddes\w*|zaxisdes|vardes|partab|ntime|npar|nlevel|nyear|nmon|ndate"
    r"|codetab|diffn?|output\w*|verifygrid|filedes|pardes|vct2?|nvar|ncode|ngrids|ngridpoints)"
)
# CDO operators that write two files (`cdo trend in.nc a.nc b.nc`: the two coefficients).
CDO_WRITES_TWO = {"trend"}
# An operator's parameter names a file only when it looks like one: a file extension
# (`-remapcon,grid.nc`) or an absolute or home path; `-selyear,1981/2010`, `-selmon,6/8` are values.
CDO_PARAM_FILE = re.compile(r"(?:/|~/|\$\{?HOME\b)[^=]*|[^=]*\.[A-Za-z][A-Za-z0-9]{0,7}")
# bwa mem's options that take a value (the others are flags).
BWA_VALUED = set("tkwdryc DWmABOELUxRHoIhKTvGX".replace(" ", ""))
PROFILERS = {"kernprof", "nsys", "ncu", "rocprof", "scalene"}
# STAR's options that name files it reads (the index, `--genomeDir`, depends on the run mode).
STAR_READS = ("--genomeFastaFiles", "--sjdbGTFfile", "--readFilesIn", "--sjdbFileChrStartEnd")
# 10x Genomics pipelines' options that name what they read.
TENX_READS = (
    "--transcriptome",
    "--reference",
    "--fastqs",
    "--libraries",
    "--csv",
    "--feature-ref",
    "--image",
    "--cytaimage",
    "--darkimage",
    "--colorizedimage",
    "--probe-set",
    "--loupe-alignment",
)
# Sequencing tools that name their files by options, as STAR does: what each option reads (the
# reference, index, reads, annotation) and writes (a file or folder), and whether its bare
# arguments are files it reads (fastqc's reads, minimap2's target and query). A tool with
# sub-commands (`salmon quant`, `salmon index`) is looked up by both words.
SEQ_TOOLS = {
    "gatk": (("-R", "--reference", "-I", "--input", "-V", "--variant"), ("-O", "--output"), 0),
    "bowtie2": (("-x", "-U", "-1", "-2", "-b", "--interleaved"), ("-S", "--output"), 0),
    "hisat2": (("-x", "-U", "-1", "-2"), ("-S", "--output"), 0),
    "minimap2": ((), ("-o",), 2),
    "fastqc": ((), ("-o", "--outdir"), -1),
    "multiqc": ((), ("-o", "--outdir"), -1),
    "trim_galore": ((), ("-o", "--output_dir"), -1),
    "bismark": (("--genome", "--genome_folder", "-1", "-2"), ("-o", "--output_dir"), -1),
    "spades.py": (("-1", "-2", "-s", "--12", "--merged", "--dataset"), ("-o",), 0),
    "featureCounts": (("-a",), ("-o",), -1),
    "salmon quant": (("-i", "--index", "-1", "-2", "-r", "-t", "-a"), ("-o", "--output"), 0),
    "salmon index": (("-t", "--transcripts"), ("-i", "--index"), 0),
    "kallisto quant": (("-i", "--index"), ("-o", "--output-dir"), -1),
    "kallisto index": ((), ("-i", "--index"), -1),
    "fastp": (
        ("-i", "--in1", "-I", "--in2"),
        ("-o", "--out1", "-O", "--out2", "--unpaired1", "--unpaired2", "--merged_out"),
        0,
    ),
    "bcftools mpileup": (("-f", "--fasta-ref"), ("-o", "--output"), -1),
    "bcftools call": ((), ("-o", "--output"), -1),
    # Assemblers of long and short reads (Flye, MEGAHIT): the reads read, the assembly's folder
    # written; Kraken 2 classifies reads (bare) against its database and writes the per-read
    # output and the report; kraken2-build writes the database it builds, kraken2-inspect reads it.
    "flye": (
        ("--nano-raw", "--nano-corr", "--nano-hq", "--pacbio-raw", "--pacbio-corr",
         "--pacbio-hifi", "--subassemblies"),
        ("-o", "--out-dir"),
        0,
    ),
    "megahit": (("-1", "-2", "-r", "--read", "--12"), ("-o", "--out-dir"), 0),
    "kraken2": (
        ("--db",),
        ("--output", "--report", "--classified-out", "--unclassified-out"),
        -1,
    ),
    "kraken2-build": ((), ("--db",), 0),
    "kraken2-inspect": (("--db",), (), 0),
    "anchorwave genoAli": (("-i", "-as", "-r", "-a", "-ar", "-s"), ("-n", "-o", "-f"), 0),
    "anchorwave proali": (("-i", "-as", "-r", "-a", "-ar", "-s"), ("-n", "-o"), 0),
    # Single-cell and spatial pipelines: 10x Genomics' Cell Ranger and Space Ranger read the
    # reference, reads, images and library sheets, and write a folder named by `--id` in the
    # working directory; kallisto|bustools' `kb count` reads its index, map and reads (bare);
    # CellBender reads a count matrix and writes the cleaned one.
    "cellranger count": (TENX_READS, ("--id",), 0),
    "cellranger multi": (TENX_READS, ("--id",), 0),
    "cellranger-atac count": (TENX_READS, ("--id",), 0),
    "cellranger-arc count": (TENX_READS, ("--id",), 0),
    "spaceranger count": (TENX_READS, ("--id",), 0),
    "kb count": (("-i", "-g", "-c1", "-c2"), ("-o",), -1),
    "cellbender remove-background": (("--input",), ("--output",), 0),
    # …and structural biology's, the same way. Docking programs (AutoDock Vina and its forks,
    # smina, gnina): the receptor, the ligands and a reference ligand for the box read, the poses
    # written (`--config` is the box's settings).
    "vina": (("--receptor", "--ligand", "--flex", "--batch"), ("--out", "--dir"), 0),
    "qvina2": (("--receptor", "--ligand", "--flex"), ("--out",), 0),
    "qvina02": (("--receptor", "--ligand", "--flex"), ("--out",), 0),
    "qvina-w": (("--receptor", "--ligand", "--flex"), ("--out",), 0),
    "smina": (("-r", "--receptor", "-l", "--ligand", "--autobox_ligand"), ("-o", "--out"), 0),
    "gnina": (("-r", "--receptor", "-l", "--ligand", "--autobox_ligand"), ("-o", "--out"), 0),
    # MGLTools' and ADFR's preparation scripts: the molecule read, the prepared file written
    "prepare_receptor4.py": (("-r",), ("-o",), 0),
    "prepare_ligand4.py": (("-l",), ("-o",), 0),
    "prepare_gpf4.py": (("-r", "-l"), ("-o",), 0),
    "prepare_dpf4.py": (("-r", "-l"), ("-o",), 0),
    "prepare_receptor": (("-r",), ("-o",), 0),
    "prepare_ligand": (("-l",), ("-o",), 0),
    # MotionCor2/3, by any build's name (TOOL_BUILD): the movies, gain and dark references and
    # defects read, the corrected micrographs written (-LogFile is its log)
    "MotionCor2": (
        ("-InMrc", "-InTiff", "-InEer", "-Gain", "-Dark", "-DefectFile", "-DefectMap"),
        ("-OutMrc",),
        0,
    ),
    # Rosetta's applications, by any build's name (TOOL_BUILD): the structures read (`-s`,
    # `-l` a list of them); `@flags` and `-parser:protocol` are its settings
    "rosetta": (
        ("-s", "-l", "-in:file:s", "-in:file:l", "-in:file:silent"),
        ("-out:file:silent", "-out:path:all", "-out:path:pdb"),
        0,
    ),
    # CryoDRGN's training: the particle stack (its bare argument), CTF and poses read, the run's
    # folder written
    "cryodrgn train_vae": (("--ctf", "--poses", "--ind"), ("-o", "--outdir"), 1),
    "cryodrgn train_nn": (("--ctf", "--poses", "--ind"), ("-o", "--outdir"), 1),
    "cryodrgn abinit_homo": (("--ctf", "--ind"), ("-o", "--outdir"), 1),
    "cryodrgn abinit_het": (("--ctf", "--ind"), ("-o", "--outdir"), 1),
    # …and PostgreSQL's client: the SQL file `-f` runs (a dump it restores, a script of
    # queries) read, `-o` the query results written; its bare words are the database, not files
    "psql": (("-f", "--file"), ("-o", "--output"), 0),
}  # fmt: skip
SEQ_TOOL_NAMES = {name.split()[0] for name in SEQ_TOOLS}
# The options naming an aligner's or quantifier's index (bowtie2's and hisat2's `-x`, salmon's
# and kallisto's `-i`): a prefix or folder, often a bare name with no extension.
SEQ_INDEX = {"-x", "-i", "--index"}
# Tools that build an aligner's index from a reference: `hisat2-build ref.fa idx` (_index_built).
INDEX_BUILDERS = {"hisat2-build", "bowtie2-build", "bowtie-build"}
SEQ_OR_INDEX_NAMES = SEQ_TOOL_NAMES | INDEX_BUILDERS
# Trimmomatic by its program's or its jar's name (`trimmomatic`, `trimmomatic-0.39.jar`,
# `Trimmomatic-0.36.jar`), the options that take a value, and its steps' names (`LEADING:3`,
# `TOPHRED33`): upper-case words, with their parameters after a colon.
TRIMMOMATIC = re.compile(r"[Tt]rimmomatic(?:-[\d.]+)?(?:\.jar)?")
TRIMMOMATIC_VALUED = {"-threads", "-trimlog", "-summary", "-basein", "-baseout"}
TRIMMOMATIC_STEP = re.compile(r"[A-Z][A-Z0-9]*")
# NCBI's SRA Toolkit's downloaders, a run's accession (SRA, ENA or DDBJ: runs, experiments,
# samples, studies), the options naming where the copy goes, and those that take a value.
SRA_TOOLS = {"fasterq-dump", "fastq-dump", "prefetch"}
SRA_ACCESSION = re.compile(r"[SED]R[RXSP]\d{5,12}")
SRA_FOLDER = {"-O", "--outdir", "--output-directory"}
SRA_VALUED = {
    *SRA_FOLDER, "-o", "--outfile", "--output-file", "-t", "--temp", "-e", "--threads", "-b",
    "--bufsize", "-c", "--curcache", "-m", "--mem", "-N", "-X", "-M", "--minReadLen",
    "--max-size", "-T", "--type", "--ngc", "--perm", "--cart", "--option-file",
}  # fmt: skip
# Programs known by a build's name: MotionCor2/3 (`MotionCor2_1.4.4_Cuda112-08-11-2021`) and
# Rosetta's applications (`rosetta_scripts.default.linuxgccrelease`, `relax.mpi.macosclangrelease`).
MOTIONCOR_BUILD = re.compile(r"MotionCor[23](?:[_-][\w.-]*)?")
ROSETTA_BUILD = re.compile(r"[A-Za-z]\w*(?:\.\w+)?\.(?:linux|macos)\w*(?:release|debug)")


def _split_long_options(words, known):
    """`--fastqs=dir` as `--fastqs dir` for the options a tool names its files by."""
    for word in words:
        key, equals, value = word.partition("=")
        if equals and word[:2] == "--" and key in known:
            yield key
            yield value
        else:
            yield word


def _tool_name(base):
    """A program by the name SEQ_TOOLS knows it: a build's name as its program's."""
    if base[:9] == "MotionCor" and MOTIONCOR_BUILD.fullmatch(base):
        return "MotionCor2"
    if ("linux" in base or "macos" in base) and ROSETTA_BUILD.fullmatch(base):
        return "rosetta"
    return base


# (at most this many files of one command: a line can hold thousands, and the first say what)
SEQ_FILES = 16
# A script variable alone (`$1`, `${3}`, `$query`): what a sequencing tool is given as a bare
# argument is a file, whatever its name.
VARIABLE_ALONE = re.compile(r"\$\{?\w+\}?")
# GROMACS by its program's name (`gmx`, `gmx_mpi`, `gmx_d`) or a tool run alone (`mdrun_mpi`).
GROMACS = re.compile(r"gmx(?:_\w+)?|(?:mdrun|grompp)(?:_\w+)?")
GROMPP_READS = ("-c", "-p", "-n", "-r", "-t")
# mdrun reads its run input (-s) and PLUMED's input (-plumed: the bias it applies); it writes the
# trajectories (-o, -x), the final structure (-c) and the energies (-e); -g is its log.
MDRUN_READS = ("-s", "-plumed")
MDRUN_WRITES = ("-o", "-x", "-c", "-e")
# AMBER's engines (`pmemd`, `pmemd.cuda`, `pmemd.MPI`, `sander`, `sander.MPI`): the input deck
# (-i), topology (-p), starting (-c) and reference (-ref) coordinates are read; the restart (-r)
# and trajectory (-x) are written; -o is the engine's printout, -inf its progress file.
# (`pmemd.cuda_SPFP`, `pmemd.cuda.MPI`; not a script named for them, `pmemd.py`)
AMBER = re.compile(r"(?:pmemd|sander)(?:\.(?:cuda|hip|MPI|mpi|LES|amoeba)\w*){0,2}")
AMBER_READS = ("-i", "-p", "-c", "-ref")
AMBER_WRITES = ("-r", "-x")
# NAMD (`namd2`, `namd3`, `namd3.cuda`): its configuration, the first argument named like a file
# after its `+` switches and their values (`+p8`, `+ppn $N`, `+devices 0,1`), is what it reads.
NAMD = re.compile(r"namd\d?(?:[._-](?:cuda|gpu|mpi|smp|multicore|cpu)\w*)?")
# A file by its name: an extension starting with a letter (`stmv.namd`, `eq.conf`; not `2.5`).
# (Used with fullmatch: linear.)
NAMED_FILE = re.compile(r"[\w${}./~-]+\.[A-Za-z]\w*")
# Simulation programs given their input deck by an option, as they are by stdin (`pw.x < scf.in`):
# LAMMPS (`lmp`, `lmp_mpi`, `lmp -in in.lj`), Quantum ESPRESSO's `*.x` tools (`pw.x -inp
# scf.in`, `ph.x -input ph.in`) and CP2K (`cp2k.psmp -i md.inp`); ORCA takes its input (`orca
# job.inp`) as its argument.
# Cosmological and particle simulations take their parameter file as the first argument: GADGET
# (`Gadget4`, `Gadget2`, `P-Gadget3`), AREPO, Enzo (`enzo.exe`), RAMSES (`ramses3d`), REST's
# Geant4 front end (`restG4 sim.rml`), and Meep's Scheme front end its control file (`meep
# sim.ctl`, `mpirun meep-mpi sim.ctl`).
DECK_PROGRAM = re.compile(
    r"(?:lmp|lammps)(?:_\w+)?|\w+\.x|cp2k(?:\.\w+)?|orca|"
    r"(?:P-)?Gadget\d?(?:_\w+)?|[Aa]repo(?:_\w+)?|enzo(?:\.exe)?|ramses\w*|restG4|meep(?:-mpi)?"
)
DECK_OPTIONS = ("-in", "-inp", "-input", "-i", "--input")
# An input deck by its kind (`quake.in`, `md.inp`): handed as the first argument to a program the
# job runs from a path (`./quake quake.in`, `srun bin/sim run.inp`) or to a DECK_PROGRAM, it is
# what the simulation reads, as it is by option or on stdin. (Used with fullmatch: linear.)
# Also a parameter file (`param.txt`, `gadget.param`, `run.params`), a Fortran namelist
# (`run.nml`), a Geant4 macro (`run1.mac`), a REST configuration (`sim.rml`) or a Meep control
# file (`sim.ctl`).
DECK_FILE = re.compile(
    r"[\w${}./~-]+\.(?:inp?|params?|nml|mac|rml|ctl)|(?:[\w${}.~-]*/)*params?\.txt"
)
# Intel's profilers (Advisor, VTune, by their current and former command names) and the options
# naming the folder they write their results to.
INTEL_PROFILER = re.compile(r"advisor|advixe-cl|vtune|amplxe-cl")
INTEL_PROFILER_HINT = re.compile(r"\b(?:advisor|advixe-cl|vtune|amplxe-cl)\b")
INTEL_RESULT_OPTIONS = {"project-dir", "result-dir", "r"}
# A radio telescope's measurement set (`obs.ms`, `sub*.ms`, `${obsid}.ms/`). (fullmatch: linear)
MEASUREMENT_SET = re.compile(r"[\w${}*./~-]+\.ms/?")
# (a line that may give a deck: its kinds' endings, searched before the line is parsed)
DECK_HINT = re.compile(r"\.(?:in|param|nml|mac|rml|ctl|pickle|pkl|h5|hdf5|npz|npy|nc)|params?\.txt")
# MPI launchers of HPC centres besides LAUNCHERS' (`prun`, `ibrun`, Cray's `aprun`).
DECK_LAUNCHERS = {"prun", "ibrun", "aprun", "mpiexec.hydra"}
OUTPUT_FILE = re.compile(
    r"^[\w${}.-]+\.(?:lprof|nsys-rep|qdrep|ncu-rep|csv|parquet|jsonl?|h5|npz?)$"
)
# A file in a folder named for the data (`-p datasets/gutenberg.train`, `--docs data/wiki.txt`):
# what the program it is handed to reads, whatever its kind.
# Scripts a job runs as its own program (Python, R, Julia): what follows them is theirs.
SCRIPT_PROGRAMS = (".py", ".R", ".r", ".jl")
DATA_FOLDER_FILE = re.compile(r"(?:\./)?(?:data|datasets?)/[\w.${}/-]*[\w}]\.[A-Za-z]\w*$")
# A folder named for the data (`./data`, `datasets`), or one in such a folder at an absolute
# place (`/network/datasets/inat`): handed to a program as its first argument, what it reads.
DATA_FOLDER = re.compile(r"(?:\./)?(?:data|datasets?)|(?:/[\w.-]+)*/(?:data|datasets?)/[\w.-]+")
# Files by their kind that hold data a program loads (tables, arrays, maps, tensors and weights),
# not settings or code.
DATA_FILE = re.compile(
    r"\.(?:csv|tsv|parquet|arrow|feather|npz|npy|h5|hdf5|nc|zarr|shp|geojson|jsonl|pt|pth|"
    # (pickled data: `data_dump.pickle`, `features.pkl`)
    r"pickle|pkl)(?:\.gz)?$",
    re.IGNORECASE,
)
# A picture by its kind (a render, a plot): what a tool's `--output` names it writes.
PICTURE_FILE = re.compile(r"\.(?:png|jpe?g|tiff?|gif|svg|webp)$", re.IGNORECASE)
# A file named for a program's results, not its log.
RESULT_FILE = re.compile(r"^(?:results?|predictions?|answers?)(?:[_.-]|$)", re.IGNORECASE)
TABLE_FILE = re.compile(r"\.(?:tsv|csv)$")
# Folders named for logs: a table printed into one is a log (a monitor's samples), not a result.
LOG_FOLDERS = {"log", "logs", "Logs", "LOGS", "slurm_logs", "slurm-logs"}
# …and a folder named for them.
RESULT_FOLDER = re.compile(r"results?|predictions?|answers?|hyps|hypotheses", re.IGNORECASE)
# A log's name (`train.log`, `run.err`) and a redirect that takes the errors too (`2>&1`).
LOG_NAME = re.compile(r"\.(?:log|err)$", re.IGNORECASE)
STDERR_TOO = re.compile(r"^\s*+2>&1")
# A file a program reads as its input: `prog < F` (not `<<`, `<(`, `< <(` or `2<&1`).
STDIN = re.compile(r"""(?:^|[^<\d&])<\s*(?![<(&])("[^"\n]+"|'[^'\n]+'|[^\s;&|<>()]+)""")
# `${1:?usage: train.sh <config.yaml>}`: the message bash prints when the argument is missing,
# not a command; its `<config.yaml>` redirects nothing.
UNSET_MESSAGE = re.compile(r"\$\{\w+:?\?[^{}]*\}")
# A file a command's output is written to: `tee [-a] F`, `> F`, `>> F` (not `2>&1`).
WRITTEN = re.compile(
    r"""\btee\s+(?:-a\s+|--append\s+)?("[^"]+"|'[^']+'|[^\s;&|<>()-][^\s;&|<>()]*)|"""
    r"""(?:^|[\s\d&])>>?\s*("[^"]+"|'[^']+'|[^\s;&|<>()&][^\s;&|<>()]*)"""
)
# Names of options that write where they point, or keep the program's own files there.
# (and where a download or copy lands: `--download-dir`, `--to`, `--into`, `--dst`, `--save_to`)
WRITES = re.compile(
    r"out|sink|save|dump|write|export|result|dest|target|download(?!ed)|"
    r"(?:^|[-_])(?:to|into|dst)(?:$|[-_])"
)
# Options and programs named for fetching or making data (`--fetch_root`, `download_data.py`,
# `generate_raw.py`): the raw folder they are given is what they fill, not what they read.
FETCHES = re.compile(r"download|fetch|generat", re.IGNORECASE)
# Options naming the source side of a translation corpus (`--src`, `--valsrc`, `--train_src`,
# `--src_file`): its sentences, not the program's code.
SOURCE_SIDE = re.compile(
    r"--(?:(?:train|val|valid|dev|test)[-_]?)?src(?:[-_](?:file|path|train|val|valid|dev|test))?"
)
OWN_FILES = re.compile(
    r"log|cache|tmp|temp|ckpt|checkpoint|config|conf\b|home|work_?dir|pwd|chdir|cwd|wandb|"
    r"mlflow|profile|trace|container|mount|bind|env|script|code|src|"
    # the folder a notebook server shows its user (`jupyter notebook --notebook-dir=D`,
    # `--NotebookApp.notebook_dir=D`): the user's own notebooks, the work, not data it reads
    # (a bare `--root_dir`, the last part of `--ServerApp.root_dir`, is as often a data root)
    r"notebook[-_]?dir"
)


# A run's own folder (`--run-dir runs/$SLURM_JOB_ID`): what a trainer writes there; an
# evaluation is given the folder of a run to read (`nh-run evaluate --run-dir runs/x`).
RUN_DIR_OPTIONS = {"--run_dir", "--run-dir"}
# A checkpoint loaded by a path option (OLMo's `--load_path`), read as Megatron's `--load`: the
# model the run starts from, or, when it is also where the run saves, what it resumes from.
LOAD_PATH_OPTIONS = {"--load_path", "--load-path"}

KNOWN_OPTIONS = (
    MODEL_OPTIONS | HUB_ID_OPTIONS | DATASET_OPTIONS | DATA_OPTIONS | OUTPUT_OPTIONS
    | HUB_OPTIONS | HUB_DATASET_OPTIONS | RESUME_FLAGS | BIND_OPTIONS
    | LORA_OPTIONS | RESUME_FROM | LOAD_PATH_OPTIONS | RUN_DIR_OPTIONS
    | {"--save", "--load"}
)  # fmt: skip

# Programs whose output-looking options name what they read.
READS_ITS_OPTIONS = {"tensorboard"}


# --- commands that plainly read nothing ----------------------------------------------------

# Steps that read no data: messages, waits, checks of the machine, installers, the shell's own
# control words. (`cat`, `source` of a script, a program of the job's own are not here.)
READS_NOTHING = {
    "echo", "printf", "sleep", "date", "hostname", "nvidia-smi", "rocm-smi", "set", "unset",
    "export", "if", "then", "else", "elif", "fi", "for", "do", "done", "while", "until", "true",
    "false", "wait", "exit", "[", "[[", ":", "conda", "module", "ulimit", "cd", "mkdir", "pip",
    "pip3", "uv", "apt", "apt-get", "yum", "dnf", "scontrol", "nproc", "lscpu", "free", "uptime",
    "whoami", "time", "printenv", "head", "tail", "tr", "cut", "wc", "sort", "uniq", "awk",
    "seq", "ip", "basename", "dirname", "tee", "ibstat", "ibv_devinfo", "nvcc", "ls", "pwd",
    "df", "apptainer", "singularity", "trap", "{", "}", "docker", "podman", "touch", "uname",
    # the node's block devices and buses listed (`lsblk` after asking for a bigger disk)
    "lsblk", "lspci",
    # a loop's own control words
    "continue", "break",
}  # fmt: skip
# Compilers: building the job's own program from its source reads no data (as `make`, `nvcc`).
COMPILERS = {"nvcc", "gcc", "g++", "cc", "c++", "clang", "clang++", "mpicc", "mpicxx", "mpic++",
             "icc", "icpc", "icx", "icpx", "nvc", "nvc++", "nvfortran", "gfortran", "ifort", "ifx",
             "mpif90", "mpifort", "hipcc"}  # fmt: skip
READS_NOTHING |= COMPILERS
# The job's own script, as a job that resubmits itself names it (`sbatch $0`, `${BASH_SOURCE[0]}`).
OWN_SCRIPT = re.compile(r"""^["']?\$(?:0|\{0\}|BASH_SOURCE|\{BASH_SOURCE(?:\[0\])?\})["']?$""")
# SkyPilot's CLI verbs that only control the API server, clusters or jobs, or list its catalogue.
SKY_CONTROLS = {"api", "status", "check", "show-gpus", "queue", "down", "stop", "cancel",
                "autostop", "cost-report"}  # fmt: skip
# SkyPilot's verbs that start a job (`sky launch`, `sky exec`, `sky jobs launch`).
LAUNCH_VERB = re.compile(r"\bsky\s++(?:jobs\s++)?(?:launch|exec)\b")
# A quoted argument on a line (double or single quotes), whole.
QUOTED_ARGUMENT = re.compile(r""""([^"\n]*+)"|'([^'\n]*+)'""")
# Start another command on the nodes: what they start decides.
LAUNCHERS = {"srun", "mpirun", "mpiexec", "torchrun", "bash", "sh", "timeout", "nohup", "numactl"}
# MPI launchers' options written with their values apart (`--bind-to core`, `-x VAR`,
# `--hostfile h`), and how many values each takes (`--mca btl tcp`, `-genv NAME value`).
MPI_LAUNCHERS = {"mpirun", "mpiexec", "mpiexec.hydra", "srun", "prun", "aprun", "ibrun"}
LAUNCHER_VALUED = {
    **dict.fromkeys(
        ["-np", "-n", "--np", "-c", "-N", "-x", "--bind-to", "-bind-to", "--map-by", "-map-by",
         "--rank-by", "-rank-by", "--hostfile", "-hostfile", "--machinefile", "-machinefile",
         "-f", "--host", "-host", "-H", "-ppn", "--npernode", "-npernode", "-wdir", "--wdir",
         "-rf", "--rankfile", "-configfile", "--cpus-per-proc", "-cpus-per-rank", "--prefix",
         "-bootstrap", "-launcher", "-iface", "-genvlist", "-envlist", "-profile"],
        1,
    ),
    **dict.fromkeys(["--mca", "-mca", "-gmca", "--gmca", "-genv", "-env"], 2),
}  # fmt: skip
# Benchmarks and self-tests that move generated data only (NCCL tests, all-reduce benchmarks,
# the CUDA samples' device checks).
BENCHMARK = re.compile(
    r"(?:^|/)(?:all_reduce|all_gather|alltoall|reduce_scatter|broadcast|reduce|gather|scatter|"
    r"sendrecv|hypercube)_perf(?:_mpi)?$|(?:^|/)all_reduce_bench\w*\.py$|"
    r"(?:^|/)[\w-]*gpu[-_]test\.py$|(?:^|/)(?:deviceQuery|bandwidthTest|p2pBandwidthLatencyTest)$|"
    # NCCL's own test scripts (`nccl_tests.py`, `test_nccl.py`)
    r"(?:^|/)(?:test_)?nccl[-_]tests?\.py$|"
    # load and interconnect tests: stress, HPL and HPCG, the OSU and perftest benchmarks, gpu-burn
    r"(?:^|/)(?:stress|stress-ng|xhpl|xhpcg|gpu_burn|gpu-burn|ib_(?:write|read|send)_(?:bw|lat)|"
    r"osu_(?:bw|bibw|latency|mbw_mr|allreduce|alltoall|allgather|bcast|reduce))$|"
    # their Python ports (mpi4py's `osu_bw.py`) and the STREAM memory-bandwidth test (`stream_c`,
    # `stream_c.exe`, the Fortran `stream_f.exe`): each makes up the data it moves
    r"(?:^|/)osu_(?:bw|bibw|latency|allreduce|alltoall|allgather|bcast)\.py$|"
    r"(?:^|/)stream_[cf](?:\.exe)?$"
)
PROGRAM_FILE = re.compile(r"\.(?:py|sh|sif|sqsh|x|exe|jl|R|lua)$|^\./")
# A helper script named for stopping programs (`bash scripts/killall_server.sh`,
# `./stop_workers.sh`): like `pkill`, it clears old processes off the machine and reads no data.
STOP_SCRIPT = re.compile(r"(?:^|/)(?:kill|killall|pkill|stop)(?:[_-][\w-]*)?\.sh$")
# `python -c "` opening inline Python, and the printing calls in it (`print(f"step {i}")`),
# whose quoted text is a message, not a file name.
PY_INLINE = re.compile(r'^\s*python[\d.]*\s+(?:-u\s+)?-c\s+"')
PRINTED = re.compile(r"\bprint\((?:[^()]|\([^()]*\))*\)")
PY_HEREDOC = re.compile(r"^\s*python[\d.]*\s+(?:-u\s+)?-\s*<<-?\s*['\"]?(\w+)")
# Text written into a file from a here-document (`cat > ~/.aws/config <<EOF`, `cat <<EOF >>
# f`, `sudo tee /etc/x.conf <<EOF`): a settings file made on the machine; its body is not run.
FILE_HEREDOC = re.compile(
    r"^\s*(?:sudo\s+)?(?:cat\s+(?:[^|;&<]*>>?\s*\S+\s*<<|<<-?\s*['\"]?\w+['\"]?\s*>>?\s*\S+\s*$)|"
    r"tee\s+(?:-a\s+)?\S+[^|;&<]*<<)"
)
HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)")
# A shell function's first line (`cleanup() {`, `function cleanup`): defining it runs nothing;
# its body is read line by line, and what it runs is judged there.
FUNCTION_START = re.compile(r"^\s*(?:function\s+[\w.-]+(?:\s*\(\))?|[\w.-]+\s*\(\))\s*\{?\s*$")
# Python that reads: files, paths, downloads. A quoted word reads when it is shaped like a
# place (`"/data/x"`, `"~/f"`, `"runs/a"`, `"x.csv"`); one that is not (`torch.device("cuda")`,
# a division `n / t`) names no file.
PY_READS = re.compile(
    r"""open\(|load|read|Path|download|from_pretrained|np\.|pd\.|os\.path|glob|listdir|"""
    r"""scandir|shutil|h5py|connect\(|requests|urlopen|"""
    r"""["'](?:[~/.$]|[\w.-]*/)|["'][^"'\n]*\.[A-Za-z]\w{0,4}["']"""
)
# A script named for setting the environment up (`setup-env.sh`, `set_env.sh`, `env.sh`).
ENV_SCRIPT = re.compile(r"(?:^|/)[\w.-]*env\.sh$")
# Tools that also run programs (`conda run`, `uv run`): only these uses set a place up.
SETUP_TOOLS = {
    tool: re.compile(rf"^(?:{uses})\b")
    for tool, uses in (
        (
            "conda",
            "activate|deactivate|env list|env create|env update|env remove|info|list|"
            "install|create|config",
        ),
        ("uv", "pip install|pip uninstall|venv|pip list|python install|sync|tool install|add|init"),
        ("pip", "install|uninstall|list|freeze|show"),
        ("pip3", "install|uninstall|list|freeze|show"),
        ("pipenv", "install|sync|lock"),
        # direnv loads the folder's environment settings (`direnv allow`)
        ("direnv", "allow|reload|hook"),
        ("poetry", "install|lock|add|config"),
        # conda's faster twins, and the package builders of HPC centres: Spack and EasyBuild
        ("mamba", "activate|deactivate|env list|env create|env update|info|list|install|create"),
        (
            "micromamba",
            "activate|deactivate|env list|env create|env update|info|list|install|create",
        ),
        (
            "spack",
            r"(?:-[\w-]+(?:=\S+)?\s+)*(?:install|load|unload|env|compiler|external|"
            r"develop|concretize|find|add|spec|mirror|buildcache|repo|config|clean|module)",
        ),
        ("eb", r"\S+"),
        ("module", "load|purge|list|use|unload|restore"),
        # fetching and building the job's code reads no data (a Hub clone is read as data)
        ("git", "clone|pull|fetch|checkout|switch|submodule|config|lfs install|reset|remote"),
        # a shell's environment, a virtual environment's or a toolchain's (`.venv/bin/activate`)
        # (a tool's own environment script too: Spack's `setup-env.sh`, a `set_env.sh`)
        ("source", r"\S*(?:activate|/env|\.env\b|rc|profile|os-release|conda\.sh|env\.sh)\b"),
        (".", r"\S*(?:activate|/env|\.env\b|rc|profile|os-release|conda\.sh|env\.sh)\b"),
    )
}
# Docker's test image (`docker run --rm hello-world`), run for its own program: it only prints
# a greeting, as `echo` does (any tag, from Docker Hub by its full name too).
QUIET_IMAGE = re.compile(r"(?:docker\.io/)?+(?:library/)?+hello-world(?::[\w.-]++)?+")
# Container runtimes: what they pull sets a place up, what they run decides.
CONTAINER_TOOLS = {"apptainer", "singularity", "docker", "podman"}
# Of them, those whose other verbs move files or start services (`docker cp`, `compose up`).
DOCKER_TOOLS = {"docker", "podman"}
# Steps that only set a place up: a job of only these shows none of its work. They read no data
# either (a clone, a build, an environment sourced, the node's own file modes and owners).
SETS_UP = {"cd", "mkdir", "module", "conda", "pip", "pip3", "uv", "apt", "apt-get", "yum", "dnf",
           "set", "unset", "ulimit", "[", "[[", "for", "true", "false", ":", "command", "which",
           "type", "git", "make", "cmake", "ninja", "source", ".", "pipenv", "poetry", "chmod",
           "chown", "chgrp", "chsh", "direnv", "mamba", "micromamba", "spack", "eb",
           # coreutils' install: a folder made or a file put in place with its modes
           "install",
           # clearing old files and stale processes off the machine reads no data
           "rm", "pkill", "kill", "killall",
           # a file system attached or re-attached (`mount -o remount,exec /usr/local/lib64`, an
           # NFS export mounted at /nfs): the machine readied for what runs on it
           "mount", "umount"}  # fmt: skip
READS_NOTHING |= SETS_UP
# Of those, the steps that build or install software: a job of them and setting up alone is a
# build job (an environment, a package, a program compiled), and reads no data.
BUILDS = re.compile(
    r"^(?:make|cmake|ninja|eb|spack(?:\s+-[\w-]+(?:=\S+)?)*\s+install|"
    r"(?:conda|mamba|micromamba)\s+(?:env\s+)?(?:create|install|update)|"
    r"(?:pip3?|uv\s+pip)\s+(?:install|wheel))\b"
)
# An installer fetched and run (`curl -fsSL https://…/install.sh | sh`, or
# `sh -c "$(curl -fsSL https://…/install.sh)"`): no data.
PIPED_INSTALLER = re.compile(
    # (the installer's settings may be given to the shell: `| K3S_TOKEN=t sh -`)
    r"^\s*(?:sudo\s+)?(?:curl|wget)\s[^|;&]*\|\s*(?:[A-Za-z_]\w*+=[^\s|;&]*+\s++)*+"
    # (not `sh -c '<cmd>'`: a command run on what is piped in, `| sh -c 'cat > x.tsv'`)
    r"(?:sudo\s+(?:-\w+\s+)*)?(?:ba|z)?sh\b(?!\s+-c\b)|"
    r"^\s*(?:sudo\s+)?(?:ba|z)?sh\s+-c\s+[\"']?\$\((?:curl|wget)\s[^()]*\)[\"']?(?:\s+(?:[^;&|<()]|&>)*)?$|"
    # a helper script fetched and run or sourced (`bash <(curl …/setup.sh)`, `eval "$(curl …)"`)
    r"^\s*(?:set\s+-\w+\s*(?:&&|;)\s*)?(?:sudo\s+)?(?:(?:ba|z)?sh|source|\.)\s+<\((?:curl|wget)\s[^()]*\)\s*$|"
    r"^\s*eval\s+[\"']?\$\((?:curl|wget)\s[^()]*\)[\"']?\s*$"
)
# A fetch piped into a shell, with the installer's settings given to it or not (`| sh -`,
# `| K3S_URL=https://$HEAD:6443 K3S_TOKEN=t sh -`): an installer run.
SHELL_PIPE = re.compile(
    r"\|\s*+(?:[A-Za-z_]\w*+=[^\s|;&]*+\s++)*+(?:sudo\s+)?(?:ba|z)?sh\b(?!\s+-c\b)"
)
# The system's own settings moved aside or put in place, also into the user's settings
# (`sudo mv /etc/apt/sources.list.d/x.list /etc/apt/sources.list.d/x.list.save`, `sudo cp
# /etc/rancher/k3s/k3s.yaml $HOME/.kube/config`): the machine set up, no data.
SETTINGS_TARGET = re.compile(r"(?:/etc/|(?:~|\$HOME|\$\{HOME\})/\.\w)")


def _moves_settings(words):
    """Whether the words are `mv`/`cp` of files under /etc/ into /etc/ or a dot-folder of the
    user's home (SETTINGS_TARGET)."""
    words = [w for w in words if not _prefix(w)]
    if not words or words[0] not in ("mv", "cp"):
        return False
    ends = [i for i, w in enumerate(words) if w in ("||", "&&", "|", "&")]
    words = words[: ends[0]] if ends else words  # (`|| true` after it is another step)
    operands = [_unquote(w.rstrip(";")) for w in words[1:] if not w.startswith("-")]
    return (
        len(operands) > 1
        and all(w.startswith("/etc/") for w in operands[:-1])
        and bool(SETTINGS_TARGET.match(operands[-1]))
    )


# A tool hooked into the shell (`eval "$(direnv hook bash)"`, `eval "$(pyenv init -)"`,
# `eval "$(conda shell.bash hook)"`, `eval "$(brew shellenv)"`): it readies the shell, reads no data.
SHELL_HOOK = re.compile(
    r"""^\s*eval\s+["']?\$\(\s*[\w./-]+\s+(?:shell\.\w+\s+hook|hook|init|shellenv)\b[^()]*\)["']?\s*$"""
)
GREP_FILE = re.compile(r"^(?![^/]*[\\\[\]()*+?^|{}])(?:[~/.$]|[\w-]+/|[\w-]+\.\w{1,5}$)")
# grep's options that take a value (the pattern given with -e, or a count, or context lines).
GREP_VALUED = {"-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C"}


def _filters_its_input(arguments):
    """Whether grep is given only its pattern, so that it reads what is piped into it (a file
    named after the pattern, or a pattern file with -f, is something it reads). A pattern
    quoted inside `$(…)` reaches here in pieces (`CUDA`, `Version:`, `[0-9]+`): only a piece
    shaped like a file (`log.txt`, `out/`, `$F`) is a file."""
    operands, skip, patterns = [], False, 0
    for word in arguments:
        if skip:
            skip = False
        elif word in GREP_VALUED:
            skip = True
            patterns += word in ("-e", "--regexp")
        elif word.startswith("-"):
            if word in ("-f", "--file") or word.startswith("--file="):
                return False
        else:
            operands.append(word)
    files = [w for w in operands[(0 if patterns else 1) :] if GREP_FILE.search(w)]
    return not files


def _edits_its_input(arguments):
    """Whether sed is given only its script (as its first operand, or with -e), so that it
    edits what is piped into it; a file operand, or a script file with -f, is read."""
    operands, scripts, skip = [], 0, False
    for word in arguments:
        if skip:
            skip = False
        elif word in ("-e", "--expression"):
            skip, scripts = True, scripts + 1
        elif word in ("-f", "--file") or word.startswith(("--file=", "--expression=")):
            if not word.startswith("--expression="):
                return False
            scripts += 1
        elif word.startswith("-") and word != "-":
            pass
        else:
            operands.append(word)
    return len(operands) <= (0 if scripts else 1)


CONTROL = {
    "if",
    "then",
    "else",
    "elif",
    "while",
    "until",
    "do",
    "!",
    "{",
    "time",
    "}",
    "fi",
    "done",
}
PLAIN_VALUE = re.compile(r"""^[A-Za-z_]\w*=(?!.*(?<!\\)\$\()""")


ARITHMETIC = re.compile(r"\$\(\([^()]*(?:\([^()]*\)[^()]*)*\)\)")
SUBSTITUTION = re.compile(r"^([A-Za-z_]\w*=)(?:\$\((\(?)|`)(.*)$")


FUNCTION_END = re.compile(r"^\s*\}\s*;?\s*$")


def _function_parameters(text):
    """Variables a shell function sets from its arguments (`exercise() { output="$4"; … }`):
    they hold whatever each call passes, no place of their own."""
    names, inside = set(), False
    for line in text.splitlines():
        if FUNCTION_START.match(line):
            inside = True
        elif inside and FUNCTION_END.match(line):
            inside = False
        elif inside and (m := ARGUMENT_VARIABLE.match(line)):
            names.add(m.group(1))
    return names


def _substituted(words):
    """An assignment from a command (`ADDR=$(scontrol show …)`, or in backquotes) is that
    command's step; arithmetic (`N=$((A * B))`) is a value."""
    for word in words:
        m = SUBSTITUTION.match(word)
        if not m:
            yield word
        elif m.group(2):
            yield f"{m.group(1)}0"
        else:
            # The word holds the whole command (`X=$(ls -t runs | head -1)`): its own words.
            inside = m.group(3)[:-1] if m.group(3).endswith((")", "`")) else m.group(3)
            yield from (m.group(1), ";", *_words(inside))


def _is_location(value):
    """A plain `--save` also names runs (`--save $SAVE_NAME`, SAVE_NAME=run-42): only a path
    or a URI is where checkpoints go."""
    if not value or value.startswith("$("):
        return False
    if re.fullmatch(r"\$\{?\w*(?:NAME|ID|TAG)\}?", value, re.IGNORECASE):
        return False  # a variable named for a run, with no value here: a name, not a path
    return bool(re.match(r"[~./]|\$\{?\w|[a-z][\w+.-]*://", value)) or "/" in value


def _prefix(word):
    return word in ("sudo", "export", ";") or word in CONTROL or bool(PLAIN_VALUE.match(word))


def _fetches_software(line):
    """A fetch on its own (no other command on the line) of nothing but software: a script, a
    package, a notebook, an installer (`wget …/01_stormcast_sda.ipynb`), never data
    (NOT_DATA_URL, not a data file a repository keeps, RAW_DATA_FILE); or a repository's signing
    key or a certificate for the package manager (SAVED_AS_KEY). The one pipe it may end in
    unpacks the program (`| sudo tar -xz -C /usr/local bin/tool`) or hands the key to the
    keyring (`| gpg --dearmor -o …`, `| apt-key add -`)."""
    fetch, bar, after = line.partition("|")
    if bar and ("$(" in after or not UNPACKS_SOFTWARE.match(after)):
        return False
    if any(mark in fetch for mark in (";", "&", "$(", "`")):
        return False
    urls = URL.findall(fetch)
    if urls and SAVED_AS_KEY.search(line):
        return True
    return bool(urls) and all(NOT_DATA_URL.search(u) and not RAW_DATA_FILE.match(u) for u in urls)


# What a fetch of software is piped into, alone on the rest of its line: an unpacker or the
# keyring (see _fetches_software).
UNPACKS_SOFTWARE = re.compile(r"\A\s*+(?:sudo\s++)?(?:tar|gpg|apt-key)\s[^|;&`]*+$")


# The node's own description of itself: its system release, processors, memory.
SYSTEM_INFO = re.compile(
    r"/etc/(?:os-release|lsb-release|redhat-release|hostname)|/proc/(?:cpuinfo|meminfo|version)"
)


# grep's options that take the next word as their value, pattern files among them (a node's
# system files are read only when nothing else is).
GREP_VALUED_ALL = GREP_VALUED | {
    "-f", "--file", "--after-context", "--before-context", "--context", "--label",
}  # fmt: skip
# A redirection written as a word (`>`, `2>/dev/null`, `<in.txt`, `2>&1`): its target, if any.
REDIRECT_WORD = re.compile(r"\d?+(>>?|<)&?+(\S*+)")


def _prints_system_info(words):
    """Whether the words are `cat` or `grep` given only the node's own description to read
    (`cat /proc/cpuinfo`, `grep PRETTY /etc/os-release`): every file named is one, and at
    least one is named (`cat /lake/d.txt /etc/hostname`, `grep -f /lake/p.txt /etc/os-release`
    read data). Up to the end of the command; redirections are no arguments."""
    words = [w for w in words[:256] if not _prefix(w)]  # (a node's description names few files)
    first = words[0].rsplit("/", 1)[-1] if words else ""
    if first not in ("cat", "grep"):
        return False
    files, pattern, take = [], first == "grep", None
    for word in words[1:]:
        word = _unquote(word)
        if word in (";", "|", "&&", "||", "&") or word[:1] == "#":
            break
        end = word.endswith(";")
        word = word.removesuffix(";")
        if take:
            if take in ("-f", "--file", "<"):
                files.append(word)
            take = None
        elif redirect := REDIRECT_WORD.fullmatch(word):
            # what it is given from (`< /lake/d.txt`) is read; what it writes to is not
            if redirect.group(1) == "<" and redirect.group(2):
                files.append(redirect.group(2))
            elif not redirect.group(2):
                take = redirect.group(1)
        elif first == "grep" and word in GREP_VALUED_ALL:
            take, pattern = word, pattern and word not in ("-e", "--regexp", "-f", "--file")
        elif first == "grep" and word.startswith(("--file=", "--regexp=", "-e", "-f")):
            pattern = False
            if word.startswith(("--file=", "-f")) and word != "-f":
                files.append(word.removeprefix("--file=").removeprefix("-f"))
        elif word.startswith("-") and word != "-":
            pass
        elif pattern:
            pattern = False  # grep's first word not an option is what it looks for
        else:
            files.append(word)
        if end:
            break
    return bool(files) and all(SYSTEM_INFO.fullmatch(f) for f in files)


def _may_read_nothing(word):
    parts = word.split()
    if not parts:
        return True
    first = parts[0].rsplit("/", 1)[-1]
    return bool(
        first.startswith("python") or first in LAUNCHERS or first in READS_NOTHING
        or first in ("sbatch", "dd", "sky") or BENCHMARK.search(parts[0]) or STOP_SCRIPT.search(parts[0])
    )  # fmt: skip


def _given_only_numbers(words):
    """Whether the words are a program run from a path (`./nbody_cuda`, `bin/mc`), alone or as a
    launcher starts it (`mpirun -np 4 ./montecarlo`), given numbers and nothing else (`./nbody
    100000 0.01 50`): it makes its own data (a simulation's particles, a Monte Carlo's draws) and
    reads none. (A script, `./run.sh 4`, hands over to commands not shown.)"""
    words = [w.removesuffix(";") for w in words if not _prefix(w)]
    if not words:
        return False
    at = _launched_at(words) if _base(words[0]) in LAUNCHERS | DECK_LAUNCHERS else 0
    program, given = words[at], words[at + 1 :]
    return bool(
        "/" in program
        and "." not in _base(program)
        and given
        and all(NUMBER.fullmatch(w) for w in given)
    )


# A program asked only for its usage or its version (`tool -h`, `tool --help`, `tool --version`).
HELP_FLAGS = {"-h", "--help", "-help", "--version", "-version"}


def _asks_help(words):
    """Whether the words are one program given only a help or version flag: it reads nothing."""
    words = [w for w in words if not _prefix(w)]
    return len(words) == 2 and words[1].rstrip(";") in HELP_FLAGS and words[0][:1] != "-"


# A line that is web-page markup copied with the script (`<strong>#SBATCH --array=0-31</strong>`,
# `</pre>`): the shell fails on it, it runs no program. Only tags, or tags around a comment or a
# directive: a command inside them (`<code>python train.py</code>`) is the script's own, copied
# with its markup. (Anchored at the start, so that it is tried once however long the line.)
MARKUP_LINE = re.compile(
    r"\A\s*+(?:</?(?:strong|b|em|i|code|pre|tt|span|p|br|div)(?:\s[^<>\n]*+)?/?>\s*+)++"
    r"(?:#[^\n]*+)?\Z",
    re.I,
)


# The folder a job starts in, or home: a cd there is no run folder (`cd $SLURM_SUBMIT_DIR`).
SUBMIT_FOLDER = re.compile(
    r"\$\{?(?:SLURM_SUBMIT_DIR|PBS_O_WORKDIR|HOME|PWD|SKYPILOT_WORKDIR)\}?|~|\$\(pwd\)|\$\(dirname[^)]*+\)"
)
# A loop's variable (`for i in 1 2 3`, `for ((i = 0; …))`) and a variable used (`$i`, `${i}`).
LOOP_VARIABLE = re.compile(r"\bfor\s+(?:\(\(\s*)?([A-Za-z_]\w*)")
SHELL_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)")


class _Quiet:
    """Whether every step a text runs plainly reads nothing (see READS_NOTHING)."""

    def __init__(self):
        self.quiet = True
        self.steps = 0  # steps that run something (not only set a place up)
        self.setups = 0  # steps that only set a place up (module load, cd, pip install)
        self.heredoc = None  # (terminator, python body?)
        self.serving = False  # a server started and not stopped after (`sky api start`)
        self.built = set()  # programs the job compiles (`nvcc x.cu -o x`)
        self.builds = 0  # steps that build or install software (make, conda create, spack install)
        self.made = set()  # folders the job makes (`mkdir -p run`): empty when it moves there
        self.moved = False  # changed into a folder there before it (a run or data folder)
        self.loop_words = set()  # loops' variables (`for i in 1 2 3`)
        self.current = ""  # the line being judged
        self.indexed = False  # the line hands a program a loop's variable (`./sim $i`)

    def _only_numbers(self, words):
        """A program given only numbers (_given_only_numbers) makes its own data, unless the
        job changed into a folder it did not make (MITgcm's `mitgcmuv` reads the data* files
        of its run folder by convention) or the number is a loop's (`for i in 1 2 3; do ./sim
        $i`: a case to read)."""
        return not self.moved and not self.indexed and _given_only_numbers(words)

    def _changes_folder(self, words):
        """Note a cd into a folder there before the job (not the submit folder, home, the
        job's own scratch or one it made)."""
        place = next((_unquote(w) for w in words if not w.startswith("-")), "").rstrip("/;")
        if (
            place
            and place not in ("~", "-", ".", "..")
            and not SUBMIT_FOLDER.fullmatch(place)
            and not JOB_ID.search(place)
            and not JOB_TEMPORARY.match(place)
            and place not in self.made
        ):
            self.moved = True

    def line(self, raw, expanded, words):
        self.current = expanded  # (the logical line, for what a step asks of it whole)
        if "for" in raw and (m := LOOP_VARIABLE.search(raw)):
            self.loop_words.add(m.group(1))
        self.indexed = bool(self.loop_words) and any(
            name in self.loop_words for name in SHELL_VARIABLE.findall(raw)
        )
        if self.heredoc:
            end, python = self.heredoc
            if python == "inline":
                # `python -c "…` over several lines: its body, up to the closing quote.
                body = raw.rstrip()
                if body.endswith('"') and not body.endswith('\\"'):
                    self.heredoc, body = None, body[:-1]
                if PY_READS.search(PRINTED.sub("", body)):
                    self.quiet = False
                return
            if raw.strip() == end:
                self.heredoc = None
            elif python == "text":
                pass  # a file's text, not commands
            elif not python or PY_READS.search(PRINTED.sub("", raw)):
                self.quiet = False
            return
        if FUNCTION_START.match(expanded) or ("=(" in expanded and ARRAY.match(expanded)):
            return  # a function defined, or a bash array set (`SEEDS=(1 2 3)`): values only
        if expanded[:1] == "<" and MARKUP_LINE.search(expanded):
            return  # a web page's markup left around a line (`<strong>#SBATCH …</strong>`): no step
        if self.quiet and (m := PY_INLINE.match(expanded)) and expanded.count('"') == 1:
            # Inline Python whose quoted body continues on the next lines.
            self.heredoc, self.steps = ('"', "inline"), self.steps + 1
            return
        if m := PY_HEREDOC.match(expanded):
            self.heredoc, self.steps = (m.group(1), True), self.steps + 1
            return
        if (m := HEREDOC.search(expanded)) and FILE_HEREDOC.match(expanded):
            self.heredoc, self.setups = (m.group(1), "text"), self.setups + 1
            return
        if m:
            self.heredoc, self.quiet = (m.group(1), False), False
            return
        if not self.quiet:
            return  # decided: something reads
        if PIPED_INSTALLER.match(expanded) or SHELL_HOOK.match(expanded):
            self.setups += 1  # installs a tool, or hooks one into the shell: sets the place up
            return
        if "$((" in expanded:
            words = _words(ARITHMETIC.sub("0", expanded))
        if "#" in expanded:
            # A word that starts with `#` opens a comment to the end of the line (`export
            # LD_LIBRARY_PATH=… # enable the plugin`): bash runs none of it.
            words = list(itertools.takewhile(lambda w: w[:1] != "#", words))
        head = next((w for w in _substituted(words[:64]) if not _prefix(w)), "").rstrip(";")
        if head in ("wget", "curl") and _fetches_software(expanded):
            self.setups += 1  # a script, package or notebook fetched: the machine's setup
            return
        if (
            head
            and not _may_read_nothing(head)
            and head.removeprefix("./") not in self.built
            and not _asks_help(words)
            and not (head in ("cat", "grep") and _prints_system_info(words))
            and not self._only_numbers(words)
            and not (head in ("mv", "cp") and _moves_settings(words))
        ):
            self.quiet = False  # decided at the first word, however long the line
            return
        segment, piped = [], False
        for word in [*_substituted(words), ";"]:
            if word in (";", "|", "&&", "||", "&") or word.endswith(";"):
                if word.endswith(";") and word != ";":
                    segment.append(word[:-1])
                self._step(segment, piped)
                if not self.quiet:
                    return
                segment, piped = [], word == "|"
            else:
                segment.append(word)

    def _launches_quietly(self):
        """Whether a SkyPilot launch on the current line runs a command given on the line
        itself (`sky jobs launch -n eval "echo Evaluating; sleep 60"`, no task file) that reads
        nothing: that command is all the launched job does. (A task file's work is not shown.)"""
        line = self.current
        if ".yaml" in line or ".yml" in line:
            return False
        m = LAUNCH_VERB.search(line)
        pos = m.end() if m else len(line)
        for m in QUOTED_ARGUMENT.finditer(line, pos):
            if any(sep in line[pos : m.start()] for sep in ("|", "&", ";")):
                return False  # (the launch ended before it: a later command's quoted words)
            pos, command = m.end(), m.group(1) or m.group(2)
            if any(c.isspace() for c in command):
                # the first argument of several words is the command the job runs
                return any(p.path == "data.no_inputs" for p in read(command))
        return False

    def _step(self, words, piped=False):
        i = 0
        while i < len(words) and _prefix(words[i]):
            i += 1  # an assignment's value is judged where it is used
        if i == len(words):
            return
        head = words[i].split()
        if not head:
            return  # a quoted blank word (`' ' lsblk`): no program named
        first = head[0].rsplit("/", 1)[-1]
        if piped and first == "grep" and _filters_its_input(words[i + 1 :]):
            return  # picks lines out of the step before it (`nvidia-smi | grep Version`)
        if piped and first == "sed" and _edits_its_input(words[i + 1 :]):
            return  # edits the text of the step before it (`echo "$q" | sed 's/x//g'`)
        if BENCHMARK.search(head[0]) or self._only_numbers(words[i:]):
            self.steps += 1
            return
        if first in ("cd", "pushd"):
            self._changes_folder(words[i + 1 :])
        elif first == "mkdir":
            self.made |= {_unquote(w).rstrip("/") for w in words[i + 1 :] if w[:1] != "-"}
        if first == "sky":
            # SkyPilot's own controls (its API server, clusters' status and stops, the GPU
            # catalogue) read no data; a launch hands work to another task, not shown here,
            # unless it is a dry run (`sky launch --dryrun`), which launches nothing.
            # The API server started and left running (`sky api start` with no `sky api stop`
            # after it) is the job's work: what it serves is not shown.
            verb = words[i + 1] if i + 1 < len(words) else ""
            dry = verb in ("launch", "exec", "jobs") and "--dryrun" in words[i + 1 :]
            if verb == "api" and words[i + 2 : i + 3] in (["start"], ["stop"]):
                self.serving = words[i + 2] == "start"
            # (the managed jobs' and services' controls too: `sky jobs queue`, `sky serve down`)
            sub = words[i + 2] if verb in ("jobs", "serve") and i + 2 < len(words) else ""
            control = verb in SKY_CONTROLS or sub in SKY_CONTROLS
            launch = verb in ("launch", "exec") or (verb == "jobs" and sub == "launch")
            self.steps += 1
            self.quiet = self.quiet and (control or dry or (launch and self._launches_quietly()))
            return
        if first in COMPILERS and "-o" in words[i + 1 : -1]:
            self.built.add(words[words.index("-o", i + 1) + 1].removeprefix("./"))
        elif head[0].removeprefix("./") in self.built and len(words) == i + 1:
            # A program the job compiled from its source, run with no arguments (a hello
            # world, a device check): it reads no data.
            self.steps += 1
            return
        if first == "sbatch":
            # Resubmitting itself reads nothing (what the script reads is read here); another
            # script submitted is work not shown.
            self.steps += 1
            self.quiet = any(OWN_SCRIPT.match(w) for w in words[i + 1 :])
            return
        stops = words[i + 1 : i + 2] if first in ("bash", "sh") else head[:1]
        if stops and STOP_SCRIPT.search(stops[0]):
            self.setups += 1  # stops old processes, as `pkill` does
            return
        if first in CONTAINER_TOOLS and _asks_help(words[i:]):
            self.steps += 1  # the runtime's version or usage (`docker --version`): reads nothing
            return
        if first in CONTAINER_TOOLS and i + 1 < len(words):
            verb = words[i + 1]
            if verb in ("pull", "build", "import", "login", "push", "tag"):
                # fetches, builds, names or publishes a container image: no data read
                if verb == "build":
                    self.setups, self.builds = self.setups + 1, self.builds + 1
                return
            if verb in ("exec", "run"):
                # The program the container runs decides (`apptainer exec x.sif python -V`).
                valued = (
                    APPTAINER_VALUED if first in ("apptainer", "singularity") else CONTAINER_VALUED
                )
                image = _first_argument(words[i:], (verb,), valued)
                if image:
                    after = words[i:].index(image, 2) + 1
                    if i + after >= len(words):
                        if QUIET_IMAGE.fullmatch(_unquote(image).removeprefix("docker://")):
                            # Docker's own test image: it prints a greeting, reads nothing.
                            self.steps += 1
                            return
                        # No command after the image: its own program runs (a server, a
                        # pipeline built into it), and what that reads is not shown.
                        self.quiet = False
                        return
                    self._step(words[i + after :])
                    return
            if first in DOCKER_TOOLS and verb in ("info", "version", "ps", "images"):
                # the runtime reports itself, its containers or its images (`docker info` after
                # installing the CLI): a check of the machine, as `nvidia-smi`; no data read
                self.steps += 1
                return
            if first in DOCKER_TOOLS:
                self.quiet = False  # `docker cp`, `docker compose up`: their work is not shown
                return
        if first == "dd":
            # A block copy from a device (`dd if=/dev/urandom of=f`) makes bytes up: it reads no
            # data; from a file it reads that file (commands.KEY_VALUE_PROGRAMS).
            sources = [w for w in words[i + 1 :] if w.startswith("if=")]
            if sources and all(_unquote(w[3:]).startswith("/dev/") for w in sources):
                self.steps += 1
            else:
                self.quiet = False
            return
        if first in ("cat", "grep") and _prints_system_info(words[i:]):
            # prints what the machine is (`grep PRETTY /etc/os-release`, `cat /proc/cpuinfo`)
            self.steps += 1
            return
        if first in ("mv", "cp") and _moves_settings(words[i:]):
            self.setups += 1  # the system's own settings moved or copied (SETTINGS_TARGET)
            return
        python = first.startswith("python")
        if python and words[i + 1 : i + 3] == ["-m", "pip"]:
            # `python -m pip install …` is pip run by the interpreter: it sets the place up
            words, i, head, first, python = ["pip", *words[i + 3 :]], 0, ["pip"], "pip", False
        # A program told to make up its own data (`train.py --synthetic`) reads none.
        made_up = any(SYNTHETIC.fullmatch(w) for w in words[i + 1 :] if w[:2] == "--")
        if _asks_help(words[i:]):
            self.steps += 1  # only prints its usage or version (`nnUNet_train -h`)
            return
        if not _may_read_nothing(head[0]):
            self.quiet = False
            return
        if first not in SETS_UP:
            self.steps += 1
        else:
            self.setups += 1
            self.builds += bool(BUILDS.match(" ".join([first, *words[i + 1 : i + 4]])))
        rest = []
        benchmark = False
        # An environment script sourced (Spack's `setup-env.sh`) readies the shell: not a program.
        environment = first in ("source", ".") and ENV_SCRIPT.search(" ".join(words[i + 1 : i + 2]))
        for word in (part for chunk in words[i + 1 :] for part in chunk.split()):
            rest.append(word)
            if environment or first == "cd":
                # (the folder changed into, `cd ./nccl-tests`, is a place, not a program run)
                continue
            if PROGRAM_FILE.search(word.rstrip(";)\"'")) or BENCHMARK.search(word):
                if not made_up and not BENCHMARK.search(word.rstrip(";)\"'")):
                    self.quiet = False  # a program of the job's own
                    return
                benchmark = True
        if python:
            # python must start a benchmark or print its version.
            runs = benchmark or "--version" in rest or "-V" in rest
        elif first in LAUNCHERS:
            # A launcher must start a benchmark or a check (`srun hostname`).
            runs = benchmark or any(w in READS_NOTHING and w != "cd" for w in rest)
        else:
            tool = SETUP_TOOLS.get(first)
            runs = not tool or bool(tool.match(" ".join(rest[:2])))
        self.quiet = self.quiet and runs

    def reads_nothing(self):
        return self.quiet and self.steps > 0 and not self.heredoc and not self.serving

    def only_builds(self):
        """Every step sets a place up and one of them builds or installs software (`make`,
        `conda env create`, `spack install`, `apptainer build`): the build is the job's work,
        and it reads no data (a job of only `module load` lines still says nothing)."""
        return self.only_sets_up() and self.builds > 0

    def only_sets_up(self):
        """Every step sets a place up (`module load`, `pip install`, `source .venv/bin/activate`)
        and none runs anything: nothing is read."""
        return self.quiet and self.steps == 0 and self.setups > 0 and not self.heredoc


class _Reader:
    def __init__(self, variables, section, binds, shared_disk=False):
        self.binds = binds
        self.shared_disk = shared_disk
        self.variables = variables
        self.section = section
        self.found = []
        self.staged = set()  # local copies of remote data (staged in or out)
        self.written = set()  # what the proposals so far write (WRITTEN_PATHS), for _written
        self.line = 0
        self.raw = ""
        self.span = ([], 0, 0, 1)
        self.current, self.line_judged = "", {}
        self.quiet = _Quiet()
        self.command_start = 0  # where the current command's proposals begin in found
        self.assigned = set()  # names whose value was read once
        self.made = set()  # folders the script makes (mkdir)
        self.pulled = {}  # image file -> the image it was pulled from
        self.inside = None  # the made folder the script has changed into (cd, pushd)
        self.mounted = []  # (container path, host path) of the line's container mounts
        # …and of the mounts an array of launcher options holds (`declare -a ARGS=(
        # --container-mounts $D:/fsx )`), for the line that hands the array over (`"${ARGS[@]}"`)
        # (by the array's name: only the arrays a line hands to srun or a container runner)
        self.array_mounts = {}
        self.array_name = None  # the array whose lines are being read (`declare -a ARGS=(`)
        self.array_closed = False  # …and whether the line read last closed it
        self.mounts_used = set()  # container paths the commands read or write through
        self.produced = set()  # files a step of the job writes for a later one
        self.copied_in = set()  # names of inputs copied into the job's own working folder
        self.run_inputs = {}  # GROMACS run inputs grompp wrote, no step has read yet -> where
        self.removed = set()  # files the job deleted: read after, they are made again by it
        self.dropped = set()  # outputs an `rm` took back (in a failure branch, as often)
        self.cwd = None  # the absolute folder the script last changed into (`cd /p`)
        self.cd_place = None  # …or any folder it names (`cd $HOME/proj`)
        self.fetch_dir = None  # the folder changed into as written (`cd data`): where fetches land
        self.repos = {}  # folder -> [url, fetched with git lfs?] of repositories cloned
        self.hub_clones = set()  # folders of Hub repositories cloned with git
        self.in_repo = None  # the cloned folder the script has changed into
        self.unpacked = set()  # repositories whose content was unpacked (read as data)
        self.index = 0  # the logical line being read
        self.downloads = []  # (proposal, line index, the forms naming a download's copy)
        self.ran = False  # whether a step so far ran a program (that may have written files)
        self.submit_names = set()  # variables set to the directory the job was submitted from
        self.arguments = set()  # variables set to the script's arguments (`MODEL_ID=$1`)
        self.named_loops = set()  # loop variables over bare names (`for D in ego movie`)
        self.emptied = set()  # variables emptied (`CKPT=""`) for the script's own option parsing
        self.computed = set()  # variables set to a command's output (`M=$(grep … x.yaml)`)
        self.dated = set()  # …of them, those set to a date (`NOW=$(date +%F)`)
        # files a step writes with `>` (`cat a b > train.jsonl`) -> the first line doing so
        self.redirected = {}
        self.last_line = 0  # the last line of the command read (one continued with `\`)
        self.text = ""  # the whole text read (for _unused, worked out only when needed)
        self._folder_lines = {}  # folder -> the first line naming it (see _named_before)
        self._unused = None
        self._leftovers_tried = 0
        self._unsaid = None  # names used only in lines commented out
        self.consumed = set()  # data files one step writes and a later one reads
        self.generated = set()  # variables set to what a command prints (`pw=$(uuidgen)`)
        self.runtimes = {}  # variables naming the container runtime (`engine=podman`): its word
        self.parameters = set()  # variables a shell function sets from its own arguments
        self.tested = set()  # files an `if` tests for (a restart from one resumes)
        self.last_tested = None
        self.restart_flags = {}  # variables set to a restart flag when a tested file is there
        self.required = None  # a file an `if` tests is missing, until its branch exits
        self.ran_before = False  # the same, before the line being read
        # whether a step so far ran a program other than an archiver (`tar -c` of one folder,
        # then of another: both are still the job's data), and the same before this line
        self.ran_beyond = self.ran_beyond_before = False
        self.ran_on_line = False  # (an earlier command of the current line ran a program)
        self.workspaces = set()  # folders named for the job that it makes and works in
        self.gpu_image = False  # whether a container was given the GPUs (--nv, --rocm)
        self.detached = set()  # images started in the background (`docker run -d`)
        self.rclone_remotes = {}  # remotes the script defines -> where their paths are
        self._evaluates = None  # whether the script only evaluates (_only_evaluates)
        self.dvc_remotes = {}  # DVC remotes the script adds: name -> store ("" the default)
        self._last_assigned = None  # (lines, name -> the last line that assigns it)

    def add(self, path, value, said):
        if path in ("data.inputs", "output.artifacts", "data.unclassified"):
            value = value.rstrip() if isinstance(value, str) else value
        if isinstance(value, str) and not _statable(value):
            return
        if path in ("data.inputs", "output.artifacts", "data.unclassified") and LOOPBACK.match(
            str(value)
        ):
            return
        if path == "output.artifacts" and PYTHON_LIBRARY.search(str(value)):
            return  # (`curl … -o venv/lib/python3.9/site-packages/x.py`: a library installed)
        if path in ("data.inputs", "output.artifacts", "request.checkpoint_location"):
            value = self._host_path(value)
            if isinstance(value, str) and "//" in value and "://" not in value:
                # A folder's value ending in `/` joined to a name (`$DIR/x` with DIR=/in/):
                # one path, `/in/x`, as the system reads it.
                value = DOUBLE_SLASH.sub("/", value)
        if path == "data.inputs" and str(value).rstrip("/") in self.removed:
            return  # (a file the job removed, then read: a step of the job made it again)
        if self.parameters and any(
            re.search(rf"\$\{{?{re.escape(name)}\b", str(value)) for name in self.parameters
        ):
            return  # a function's argument: each call names its own place
        line, text = self.line, self.raw
        raw, start, end, first = self.span
        word = said.split()[0] if said and said.split() else ""
        if word and end - start > 1 and word not in text:
            # The physical line of a continued command that holds what was read.
            for i in range(start, end):
                if word in raw[i] and not raw[i].lstrip().startswith("#"):
                    line, text = i + first, raw[i]
                    break
        self.found.append(
            Proposal(path, value, line, shown_line(text), said, self.section, command=self.line)
        )
        if path in WRITTEN_PATHS and str(value).rstrip("/"):
            self.written.add(str(value).rstrip("/"))

    def expand(self, word):
        return self.variables.expand(word, record=False)

    def _host_path(self, value):
        """A path the program is given inside its container is the host path mounted there
        (`--container-mounts=/lustre/data:/data` … `--data /data/train`)."""
        if not isinstance(value, str) or not self.mounted:
            return value
        for target, source in self.mounted:
            if value == target or value.startswith(target + "/"):
                self.mounts_used.add(target)
                return source + value[len(target) :]
        return value

    # each reader takes the words of one logical line, expanded

    def read_line(self, line):
        self.current, self.line_judged = line, {}
        if self.array_mounts or ARRAY_ELEMENT.match(line):
            self._array_lines(line)
        words = _words(line)
        self.mounted = self._arrays_mounted(words) if "[@]" in line and self.array_mounts else []
        self.quiet.line(self.raw, line, words)
        if m := TESTS_FOR_FILE.match(line):
            self.tested.add(self.expand(m.group(1)))
            self.last_tested = self.expand(m.group(1))
        elif self.tested:
            self._restarts(words)
        self._requires(line)
        self.ran_before = self.ran
        self.ran = self.ran or self._ran(words)
        self.ran_beyond_before = self.ran_beyond
        self.ran_beyond = self.ran_beyond or self._ran(words, skip=ARCHIVERS)
        if self.shared_disk and (".env" in line or "$(" in line):
            self._key_files(line, words)
        if self.shared_disk and "=" in line and (m := LITERAL_KEY.match(line)):
            self._literal_key(m.group(1), m.group(3))
        if (m := ASSIGNMENT.match(line)) or (
            "#" in line and (m := COMMENTED_ASSIGNMENT.match(line))
        ):
            self._assignment(m.group(1))
            return
        if ";" in line and (m := ARGUMENT_VARIABLE.match(line)):
            self._assignment(m.group(1))  # `infile=$1; shift`: the argument taken, then shifted
            return
        if '="' in line and (m := COMMAND_STRING.match(line)):
            # A command line kept in a variable whose value the script computes (`` CMD="
            # `pwd`/train.py --save $CKPT" ``, then `bash -c "$LAUNCHER $CMD"`): the variable
            # has no value to expand, so its options are read where they are written.
            self._options(_words(m.group(1)))
            return
        if "=(" in line and (m := ARRAY.match(line)):
            # Options a script keeps in an array for its program (`ARGS=(--save /ckpt)`, then
            # "${ARGS[@]}") are read where they are set: the array is not expanded.
            self._options(_words(m.group(1)))
            return
        if words and words[0] in READS_ITS_OPTIONS:
            return  # tensorboard --logdir reads a log directory; it writes nothing
        if words and words[0] == "ln":
            self._data_link(words)
        if words[:1] == ["rm"]:
            gone = {self.expand(w).rstrip("/") for w in words[1:] if w[:1] != "-"}
            self.removed |= gone
            # What a step wrote and the job then removes was scratch (the SAM an aligner wrote,
            # made into a BAM), not something the job leaves behind.
            gone |= {self._in_cwd(w) for w in gone}
            self.dropped |= {
                str(p.value).rstrip("/") for p in self.found
                if p.path == "output.artifacts" and str(p.value).rstrip("/") in gone
            }  # fmt: skip
            self.found = [
                p for p in self.found
                if not (p.path == "output.artifacts" and str(p.value).rstrip("/") in gone)
            ]  # fmt: skip
        if words[:1] == ["mv"]:
            self._renamed(words)
        if "git" in line or self.repos:
            self._lfs_data(words)
        if words[:1] == ["cd"]:
            # (`cd "$WORKSPACE" || exit 1`, `cd "$D" || { echo …; exit 1; }`: the same change)
            alone = len(words) == 2 or (len(words) > 2 and words[2] in ("||", "&&", ";"))
            place = self.expand(words[1]).rstrip("/") if alone else ""
            if self.cwd and RELATIVE.fullmatch(place) and not _is_path(place) and ".." not in place:
                # (`cd $WORK_DIR; mkdir build; cd build`: a folder within the one it was in)
                place = f"{self.cwd}/{place.removeprefix('./')}"
            self.cwd = place if place.startswith("/") and _statable(place) else None
            # (as written, `$HOME/proj` too: what a bind of `.` mounts)
            self.cd_place = place if _is_path(place) and _statable(place) else None
        if "cd" in words:
            self.fetch_dir = self._fetch_dir(words)
        if "-c" in words or any(" " in w for w in words):
            words = _inline_scripts(words)
        start = self.command_start = len(self.found)
        if "dvc" in line:
            for m in DVC.finditer(line):
                said = re.sub(r"\s+", " ", m.group(0))
                self.found.append(Proposal("note", said, self.line, self.raw.strip()[:200], said))
                if self.dvc_remotes and m.group(0).split()[-1] in ("pull", "fetch", "push"):
                    self._dvc_store(m, line, said)
        if self.variables.choices and "$" in line:
            words = self._optional_options(words)
        self._options(words)
        if "=" in line and (".jar" in line or "picard" in line or "gatk" in line):
            self._key_values(words)
        if ("beagle" in line or "dd " in line) and "=" in line:
            self._beagle(words)
        if "://" in line and "=" in line:
            self._uri_arguments(words)
        if "train_gpt2" in line:
            self._llm_c(words)
        if "-o" in words or "--output" in line or "-output" in words:
            self._program_output(words)
        if ".py" in line and ("data" in line or any(f" {w} " in line for w in TRAIN_SUBCOMMANDS)):
            self._data_folder_argument(words)
        if ".py" in line and any(
            READER_SCRIPT.fullmatch(_base(w)) for w in words if w.endswith(".py")
        ):
            for command in _commands(words):
                if any(READER_SCRIPT.fullmatch(_base(w)) for w in command):
                    self._positional_inputs(command)
        if ".ipynb" in line or "nbconvert" in line:
            self._notebook(words)
        if "url" in line and ".py" in line:
            self._crawled_site(words)
        if "gdc-client" in line:
            self._gdc_download(words)
        if "bwa" in line:
            self._aligner(words)
        if (
            "fold" in line
            or "predict" in line
            or "_feature" in line
            or "kmeans" in line
            or "km_label" in line
        ) and PREDICTOR_IN_LINE.search(line):
            self._predictor(words)
        if ("participant" in line or "group" in line) and BIDS_LEVEL.search(line):
            self._bids_app(words)
        if "samtools" in line:
            self._samtools(words)
        if "cdo" in line:
            self._cdo(words)
        if "STAR" in line:
            self._star(words)
        if not SEQ_OR_INDEX_NAMES.isdisjoint(_tool_name(_base(w)) for w in words):
            self._seq_tool(words)  # (by the words' own names: no expression to search a line)
        if "rimmomatic" in line:
            self._trimmomatic(words)
        if "dump" in line or "prefetch" in line:
            self._sra(words)
        if "--env" in line or "-e" in line:
            self._container_keys(words)
        if "mdrun" in line or "grompp" in line:
            self._gromacs(words)
        if "pmemd" in line or "sander" in line:
            self._amber(words)
        if "namd" in line:
            self._namd(words)
        if "dp" in words or "dp " in line:
            self._deepmd(words)
        if "wsclean" in line:
            self._wsclean(words)
        if ("advis" in line or "vtune" in line or "amplxe" in line) and (
            INTEL_PROFILER_HINT.search(line)
        ):
            self._intel_profiler(words)
        if " -i" in line or " --input" in line or DECK_HINT.search(line):
            self._deck(words)
        if self.mounted:
            self._inside_outputs(start)
        self._in_image(words, start)
        self._hub(line, words)
        if "requeue" in line and REQUEUE_SELF.search(line):
            # The job puts itself back in the queue (a SIGTERM trap's `scontrol requeue
            # $SLURM_JOB_ID`): written to be stopped and run again, as with --requeue.
            self.add("_requeue", True, REQUEUE_SELF.search(line).group(0))
        if "dmtcp" in line or "coordinator" in line:
            self._dmtcp(line)
        if ("WEIGHTS" in line or "PRETRAINED" in line or "_DIR" in line) and (
            YACS_IN_LINE.search(line)
        ):
            self._yacs(words)
        if "<" in line:
            self._stdin(line)
        if ("echo" in line or "printf" in line) and ECHOED.search(line):
            # A copy or a download quoted for echo is advice printed for the user, not run.
            said = ECHOED.sub("echo", line)
            self._fetch(said, _words(said))
            self._copies(said, _words(said))
        else:
            self._fetch(line, words)
            self._copies(line, words)
        self._containers(line, words)
        if "wandb" in line and "login" in line:
            self._wandb_login(words)
        if "dry" in line and DRY_RUN.intersection(words):
            # A rehearsal (`--dry-run`) only lists what it would do: it writes nothing.
            self.found[start:] = [p for p in self.found[start:] if p.path not in WRITTEN_PLACES]
        if "save" in line and NO_SAVE.intersection(words):
            # A run told to keep no checkpoints (`--no-save`, `--no_save`) keeps none in the
            # folder it is given for them (fairseq's `--save-dir ckpt`).
            self.found[start:] = [
                p
                for p in self.found[start:]
                if p.path not in ("request.checkpoint_location", "_save")
            ]
        if (
            self.inside
            or (self.shared_disk and ">" in line)
            or "mkdir" in line
            or "tar" in line
            or "unzip" in line
            or "ffmpeg" in line
            or (self.made and ("cd" in line or "pushd" in line))
        ):
            self._writes(line, words)
        if len(self.found) - start > 1:
            # Places of one kind one line names are numbered in the order the line gives them,
            # as an engineer reading it would (`-i URL … --model M`), whichever reader found them.
            self.found[start:] = _in_line_order(self.found[start:], line)

    def _uri_arguments(self, words):
        """A bucket given to a program as `key=gs://…` (Snakemake's `--config`, make-style
        arguments): data it reads when the key names its input (`fq_dir=`, `input=`), the place
        it writes when the key names its output folder (MaxText's `base_output_directory=`),
        which is where it checkpoints when the same command turns checkpointing on."""
        saves = any(SAVES_ARGUMENT.fullmatch(w) for w in words[1:])
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                continue
            if "://" not in value and "$" not in value:
                continue  # (no bucket, nor a variable that could name one)
            value = self.expand(_unquote(value))
            if not CLOUD_URI.fullmatch(value):
                continue
            if URI_ARGUMENT.fullmatch(key) and not WRITES.search(key):
                self.add("data.inputs", value, word)
            elif OUTPUT_ARGUMENT.fullmatch(key):
                if key == "base_output_directory" and _maxtext_saves(words, self.text):
                    # (MaxText's trainer checkpoints there unless told not to: both)
                    self.add("request.checkpoint_location", value, word)
                    self.add("output.artifacts", value, word)
                    continue
                kind = "request.checkpoint_location" if saves else "output.artifacts"
                self.add(kind, value, word)

    def _lfs_data(self, words):
        """A repository fetched with Git LFS (`git lfs clone URL`, or `git clone URL` then `git
        lfs pull` in it) whose content the job unpacks (`tar -x`, `unzip`) is data it reads: the
        repository is the input. (One the job runs its program from is its code: fill_* drop
        the input then.)"""
        for command in _commands(words):
            while command and command[0] in ("sudo", "then", "do", "else"):
                command = command[1:]
            if command[:3] == ["git", "lfs", "clone"] or command[:2] == ["git", "clone"]:
                lfs = command[1] == "lfs"
                found = _clone_of(["git", "clone", *command[3 if lfs else 2 :]])
                if found:
                    self.repos[found[1]] = [found[0], lfs, self.line, self.raw]
            elif command[:3] == ["git", "lfs", "pull"] and self.in_repo in self.repos:
                self.repos[self.in_repo][1] = True
            elif command[:1] == ["cd"]:
                place = command[1].rstrip("/") if len(command) > 1 else ""
                name = place.rsplit("/", 1)[-1]
                self.in_repo = name if name in self.repos and place not in ("..", ".") else None
            elif command[:1] in (["tar"], ["unzip"]) and len(command) > 1:
                flags = command[1]
                if command[0] == "tar" and not (
                    flags == "--extract" or (re.fullmatch(r"-?[A-Za-z]+", flags) and "x" in flags)
                ):
                    continue  # (tar -x or --extract only)
                archive = next((w for w in command[2 if command[0] == "tar" else 1 :]
                                if not w.startswith("-")), "")  # fmt: skip
                folder = archive.split("/", 1)[0] if "/" in archive else self.in_repo
                repo = self.repos.get(folder)
                if repo and repo[1] and folder not in self.unpacked:
                    self.unpacked.add(folder)
                    self.add("data.inputs", repo[0], f"git lfs clone {repo[0]}, unpacked")

    def _data_link(self, words):
        """A folder linked in as the program's data folder (`ln -sfn $DATA_DIR data`) is what
        the program reads: the link only gives it the name the program looks for."""
        ends = [i for i, w in enumerate(words) if w in ("&&", "||", ";", "|")]
        places = [w for w in words[1 : ends[0] if ends else None] if not w.startswith("-")]
        # (or a folder inside it: `ln -sfn $D data/sudoku`, the program reading data/*)
        link = places[1].rstrip("/") if len(places) == 2 else ""
        if link in DATA_LINK_NAMES or link.split("/", 1)[0] in DATA_LINK_NAMES and "/" in link:
            source = self.expand(places[0]).rstrip("/")
            if source and "$" not in source:
                self.add("data.inputs", source, " ".join(words))
        elif (
            link
            and MODEL_FILE.search(source := self.expand(places[0]))
            and "$" not in source
            and _file_word(source)
            and not self._inside_own(source)
        ):
            # A trained model linked in under the name the program loads (`ln -s
            # ../train/frozen_model.pb frozen_model.pb`, then `lmp -in in.lammps`): read.
            self.add("data.inputs", source, " ".join(words))

    def _inside_own(self, value):
        """Whether a path is, or is inside, what an earlier step wrote: a file or folder the job
        produced, an output it keeps, or the folder it checkpoints into (`--output_dir
        /scratch/run1 --save_steps 100`, then `/scratch/run1/checkpoint-100/model.safetensors`)."""
        value = value.rstrip("/")
        own = self.produced | {
            str(p.value).rstrip("/")
            for p in self.found
            if p.path in ("output.artifacts", "request.checkpoint_location")
        }
        return any(value == p or value.startswith(p + "/") for p in own if p and p != "/")

    def _key_values(self, words):
        """Picard's and GATK's old style, `INPUT=x.bam OUTPUT=y.bam METRICS_FILE=m.txt`: files
        read and written. A file an earlier step wrote is not read from outside."""
        for word in words:
            key, eq, value = word.partition("=")
            kind = PICARD_KEYS.get(key) if eq else None
            value = self.expand(_unquote(value))
            if not kind or not (_is_path(value) or (RELATIVE.fullmatch(value) and "." in value)):
                continue
            if kind == "data.inputs" and value in self.produced:
                continue
            self.add(kind, value, word)
            if kind == "output.artifacts":
                self.produced.add(value)

    def _beagle(self, words):
        """Programs that take `key=value` words (KEY_VALUE_PROGRAMS). Beagle (genotype phasing
        and imputation): the genotypes (`gt=`), the reference panel (`ref=`) and the genetic map
        (`map=`) are read; `out=` is the prefix of the files it writes. dd: `if=` is read and
        `of=` written, unless it is a device (`/dev/urandom`, `/dev/null`)."""
        keys = KEY_VALUE_PROGRAMS["dd"] if words[:1] and _base(words[0]) == "dd" else None
        if keys is None and any("beagle" in _base(w) for w in words):
            keys = KEY_VALUE_PROGRAMS["beagle"]  # (a jar run by java: the name anywhere)
        if keys is None:
            return
        for word in words:
            key, eq, value = word.partition("=")
            kind = keys.get(key) if eq else None
            value = self.expand(_unquote(value))
            usable = kind and BEAGLE_FILE.fullmatch(value) and not value.isdigit()
            if usable and not value.startswith("/dev/"):
                self.add(kind, value, word)

    def _requires(self, line):
        """A data file the job stops without (see REQUIRES_FILE) is read, unless a step of the
        job wrote it."""
        if m := REQUIRES_FILE.match(line) or REQUIRED_OR_EXIT.match(line):
            self.required = self.expand(m.group(1))
            if not re.search(r"\bexit\s+[1-9]", line):
                if re.search(r";\s*fi\s*$", line):
                    self.required = None  # a one-line test that does not stop the job
                return  # (the branch follows: its `exit` decides)
        elif self.required is None:
            return
        elif re.match(r"\s*(?:fi|else|elif)\b", line):
            self.required = None  # (an `exit` in the other branch runs when the file is there)
            return
        elif not FAILS.match(line):
            return
        value, self.required = self.required, None
        if (
            DATA_FILE.search(value)
            and (_is_path(value) or RELATIVE_PLACE.fullmatch(value))
            and not NODE_LOCAL.match(value)
            and not self._written(value)
        ):
            self.add("data.inputs", value, f"{value} (the job stops without it)")

    def _restarts(self, words):
        """A restart option given a file the script first tested for (see TESTS_FOR_FILE), or
        a variable set to a restart flag when that file is there (`if [ -f ckpt/last.pth ];
        then FLAG="--resume"; fi`, then `train.py $FLAG`): the job resumes from that file."""
        if words and (m := FLAG_ASSIGNMENT.fullmatch(words[0])) and self.last_tested:
            if RESTART_OPTION.fullmatch(m.group(2)):
                self.restart_flags[m.group(1)] = self.last_tested
            return
        for word in words:
            name = m.group(1) or m.group(2) if (m := SUBMIT_VARIABLE.fullmatch(word)) else None
            if name in self.restart_flags:
                tested = self.restart_flags[name]
                said = f"{word} ({name} set to resume when {tested} is there)"
                self.add("request.checkpoint_location", tested, said)
                self.add("request.preemptible", True, said)
                return
        for i, word in enumerate(words):
            option, eq, value = word.partition("=")
            if not RESTART_OPTION.fullmatch(option) or not (eq or i + 1 < len(words)):
                continue
            value = self.expand(value if eq else words[i + 1])
            if value in self.tested and value[:1] != "-":
                said = f"{option} {value} (when the file is there)"
                self.add("request.checkpoint_location", value, said)
                self.add("request.preemptible", True, said)
                return

    def _llm_c(self, words):
        """llm.c's trainers (`train_gpt2cu`) take single letters: `-o` is the folder they write
        to (a bare name too: `-o log124M` is a folder in the working directory), checkpoints
        included when `-n N` saves one every N steps, and `-y 1` resumes from the latest
        checkpoint there."""
        if not any(w.rsplit("/", 1)[-1].startswith("train_gpt2") for w in words):
            return
        given = dict(zip(words, words[1:], strict=False))
        out = self.expand(_unquote(given.get("-o", ""))).rstrip("/")
        every = given.get("-n", "")
        if (_is_path(out) or RELATIVE.fullmatch(out)) and every.isdigit() and every.strip("0"):
            self.add("request.checkpoint_location", out, f"-o {out}")
            if given.get("-y") == "1":
                self.add("request.preemptible", True, "-y 1")

    def _writes(self, line, words):
        """What the script writes itself. A folder it makes, changes into and writes its results
        in (`mkdir D; pushd D; … >> result.out`) is an output, on a cluster's shared file
        system (a cloud VM's disk goes with the VM). A log written into a made folder
        (`tee -a logs/main.txt`) is not: it is the console kept. A tar archive the script
        creates (`tar -cf X …`) is an output, one it unpacks (`tar -xf X`) an input."""
        steps = COMMAND_SPLIT.split(line) if ("&&" in line or ";" in line) else [line]
        earlier = False
        for command in steps:
            # (`python sim.py --out results && tar -czf r.tar.gz results`: a program ran
            # before on this line, what tar packs is its results)
            self.ran_on_line = earlier
            if len(steps) > 1 and not earlier:
                earlier = self._ran(_words(command), skip=ARCHIVERS)
            parts = _launched(_words(command))
            while parts and parts[0] in ("sudo", "time", "command", "then", "do", "else"):
                parts = parts[1:]
            head = parts[0].rsplit("/", 1)[-1] if parts else ""
            if head == "mkdir":
                for folder in parts[1:]:
                    folder = self.expand(folder).rstrip("/")
                    if (
                        not folder.startswith("-")
                        and _statable(folder)
                        and not NODE_LOCAL.match(folder)
                        # (nor one made in the job's own folder: `cd $WORK; mkdir build`)
                        and not (self.workspaces and self._node_local(folder))
                    ):
                        self.made.add(folder)
            elif head in ("cd", "pushd"):
                target = self.expand(parts[1]).rstrip("/") if len(parts) > 1 else ""
                self.inside = target if target in self.made else None
            elif head == "popd":
                self.inside = None
            elif head in ("tar", "htar") and len(parts) > 2:
                self._tar(parts)
            elif head == "ffmpeg" and len(parts) > 3:
                self._ffmpeg(parts)
            elif head == "unzip" and len(parts) > 1:
                self._unzip(parts)
        if not self.shared_disk:
            return
        for m in WRITTEN.finditer(line) if (self.inside or ">" in line) else ():
            target = self.expand(_unquote(m.group(1) or m.group(2))).rstrip("/")
            if not target or target.startswith("/dev/"):
                continue
            self.produced.add(target)  # a later step reading it reads the job's own file
            if self.inside and "/" not in target and "$" not in target:
                self.add("output.artifacts", self.inside, f"{m.group(0).strip()} in {self.inside}")
                return
            folder, _, name = target.rpartition("/")
            if (
                not self.inside
                and (
                    RESULT_FILE.match(name)
                    # (a table kept in a folder named for logs is a log: `nvidia-smi
                    # --query-gpu=… --format=csv -l 10 > logs/gpu_usage_$ID.csv &`)
                    or (TABLE_FILE.search(target) and folder.rpartition("/")[2] not in LOG_FOLDERS)
                    or (
                        RESULT_FOLDER.fullmatch(folder.rpartition("/")[2])
                        # (a log kept there is still a log: `> results/train_$ID.log 2>&1`)
                        and not LOG_NAME.search(name)
                        and not (name.endswith(".out") and STDERR_TOO.search(line[m.end() :]))
                    )
                )
            ):
                # A program's printed result kept in a file named for it (`> result_$ID.out`),
                # in a folder named for results (`> results/test.nbest.out`), or printed as a
                # table (`done > samples.tsv`): not its log.
                self.add("output.artifacts", target, m.group(0).strip())

    def _stdin(self, line):
        """A file given to a program as its input (`g16 < water.com`, `pw.x < scf.in`) is read;
        not a here-document (`<<`), a process (`< <(find …)`) or /dev/null."""
        if re.search(r"\bdone\s*<|\b(?:read|readarray|mapfile)\b", line):
            return  # a list the script reads line by line: its own parameters
        if "?" in line:
            line = UNSET_MESSAGE.sub("", line)
        if "[[" in line:
            line = _without_tests(line)
        tasks = "parallel" in line or "xargs" in line or "sed" in line
        # (each command judged once, at its first redirect, each stretch searched once: linear)
        begun, scanned, feeds = None, 0, False
        for m in STDIN.finditer(line):
            if line[m.end() : m.end() + 1] == ">" and (
                m.group(1).startswith("/") or line[m.start(1) - 1] == "<"
            ):
                # a closing tag (`--stop '["</tool_call>"]'`) or a word in angle brackets, a
                # usage message's blank (`echo "usage: sbatch job.sh <script.py> [args...]"`):
                # not a redirect
                continue
            if tasks:
                cut = max(line.rfind(c, scanned, m.start()) for c in "|;&")
                scanned = m.start()
                if begun is None or cut >= 0:
                    begun = cut + 1 if cut >= 0 else 0
                    feeds = _feeds_tasks(line[begun : m.start() + 1], line[m.end() : m.end() + 80])
                if feeds:
                    continue  # a list of tasks (`parallel < cmds.txt`): the work, not its data
            raw = _unquote(m.group(1))
            value = self.expand(raw)
            if self._redirected_before(raw, value) or self._written(value):
                continue  # a list an earlier step of the job wrote (`ls … > all.txt`; `wc -l < all.txt`)
            if value.startswith("/dev/") or not (
                _is_path(value) or RELATIVE.fullmatch(value) and "." in value
            ):
                continue
            self.add("data.inputs", value, f"< {value}")

    def _tar(self, parts):
        # The option letters may come after options with a value (`tar -C $TMPDIR/data -xzf A`,
        # `tar -I pigz -xf A`) or in several groups (`tar -x -f A`): the archive follows the
        # group that ends in f.
        # HPSS's htar reads tar's letters; its own options take a value (`-L list`, `-T 4`,
        # `-H crc`, or joined: `-Hcrc`), and its archive is a path on HPSS (a relative one is
        # under the user's HPSS home, not the folder the script changed into).
        htar = parts[0] == "htar"
        flags, archive, i = "", "", 1
        while i < len(parts) and not archive:
            word = parts[i]
            if word in TAR_VALUED or (htar and word in HTAR_VALUED):
                i += 2
                continue
            if htar and word.startswith("-H"):
                i += 1
                continue
            if not (re.fullmatch(r"-[A-Za-z]+", word) or (i == 1 and word.isalpha())):
                return  # (a long option or a file first: not a form read here)
            flags += word.lstrip("-")
            if flags.endswith("f") and i + 1 < len(parts):
                archive = self.expand(parts[i + 1])
            i += 1
        if htar and "c" in flags and ARCHIVE_FILE.search(archive):
            self.add("output.artifacts", archive, f"htar -{flags} {archive}")
            if "-L" not in parts and "-C" not in parts:  # (htar's -T is its threads)
                self._archived(parts[i + 1 :], flags)
            return
        if htar and "x" in flags and ARCHIVE_FILE.search(archive):
            self.add("data.inputs", archive, f"htar -{flags} {archive}")
            return
        if not _is_path(archive):
            # (`cd /p/run; tar -zcf out.tar.gz out`: an archive by its name, under the folder
            # the script changed into, on a cluster's shared disk)
            if not (
                self.shared_disk and ARCHIVE_FILE.search(archive) and TAR_MEMBER.fullmatch(archive)
            ):
                return
            archive = self._in_tree(archive)
        if NODE_LOCAL.match(archive):
            return
        if "c" in flags:
            self.add("output.artifacts", archive, f"tar -{flags} {archive}")
            if not any(w in TAR_VALUED for w in parts):
                self._archived(parts[i + 1 :], flags)
        elif "x" in flags:
            self.add("data.inputs", archive, f"tar -{flags} {archive}")

    def _ffmpeg(self, parts):
        """FFmpeg reads each file given with `-i` and writes the file its command ends with
        (`ffmpeg -y -i part-1.mp4 -filter:v scale=640:360 out-1.mp4`, a frame pattern
        `-pattern_type glob -i 'f*.jpg'`): what is not an option's value, a file by its
        extension. Not a pipe, stdin/stdout (`-`), the null device, or a file an earlier step
        wrote; a relative one on a cluster's shared disk only (under the folder changed into).
        The command ends before its redirections, a `&` and a comment, and its trailing flags
        (`out.mp4 -y > ff.log 2>&1 &`)."""
        parts = _ffmpeg_words(parts)
        if len(parts) < 3:
            return
        for j in range(1, len(parts) - 1):
            place = self._media_place(parts[j + 1]) if parts[j] == "-i" else ""
            if place and not self._written(place):
                # (a stream's address without its query or user part: `srt://cam:9000`, not
                # its `?passphrase=…`; said as the `-i` it was read from, not the command)
                place = _without_query(place)
                self.add("data.inputs", place, f"-i {place}")
        last, before = parts[-1], parts[-2]
        if before == "-i" or (before.startswith("-") and before not in FFMPEG_FLAGS):
            return  # (the last word is an option's value)
        if "." in last.rsplit("/", 1)[-1] and (place := self._media_place(last)):
            place = _without_query(place)
            self.add("output.artifacts", place, f"ffmpeg … {place}")

    def _media_place(self, word):
        place = self.expand(_unquote(word))
        if place in ("-", "/dev/null") or place.startswith(("pipe:", "-")):
            return ""
        if "://" in place or _is_path(place):
            return place
        return self._in_tree(place) if self.shared_disk and MEDIA_FILE.fullmatch(place) else ""

    def _archived(self, members, flags):
        """The files and folders `tar -c` packs (`tar -zcf A.tar.gz run_1/ run_2/`) are read,
        on a cluster's shared disk, before any program of the job has run (after one, they are
        its results; an earlier command of the same line too) and not written by an earlier step; not with `-C` (they are relative to
        another folder) nor a list given with `-T`."""
        if not self.shared_disk or self.ran_beyond_before or self.ran_on_line:
            return
        for member in members:
            if member[:1] in ("-", ">", "<", "|", "&", ";", "2"):
                return
            place = self.expand(_unquote(member))
            if not _is_path(place):
                place = self._in_tree(place) if TAR_MEMBER.fullmatch(place) else ""
            if place and not NODE_LOCAL.match(place) and not self._written(place.rstrip("/")):
                self.add("data.inputs", place, f"tar -{flags} … {member}")

    def _gdc_download(self, words):
        """The NCI Genomic Data Commons' client, `gdc-client download -m MANIFEST -d DIR -t
        TOKEN`: the manifest (the list of files fetched) is read, DIR is where the copy lands
        (a download: read() decides whether the job makes it), the token file is its key."""
        for command in _commands(words):
            if not command or command[0].rsplit("/", 1)[-1] != "gdc-client":
                continue
            if "download" not in command[1:2]:
                continue
            given = dict(zip(command[2:], command[3:], strict=False))
            said = " ".join(command)[:160]
            manifest = given.get("-m") or given.get("--manifest")
            folder = given.get("-d") or given.get("--dir")
            token = given.get("-t") or given.get("--token-file")
            if manifest:
                self.add("data.inputs", self.expand(manifest), said)
            if folder:
                self._downloaded("gdc-client", self.expand(folder), folder, said)
            if token and _is_path(self.expand(token)):
                self.add("work.credentials", self.expand(token), said)

    def _unzip(self, parts):
        """`unzip [options] X.zip [-d DIR]`: the archive is read (a relative one in the folder
        the script changed into); not one on the node's own disk or one the job fetched or
        wrote itself (that copy is staging). On a cluster's shared disk only: on a cloud VM an
        archive is one the job has just downloaded (`kaggle datasets download`)."""
        if not self.shared_disk:
            return
        skip = False
        for word in parts[1:]:
            if skip:
                skip = False
            elif word in ("-d", "-P"):
                skip = True
            elif word == "-x":
                return
            elif not word.startswith("-"):
                archive = self._in_cwd(self.expand(word))
                if (
                    archive.lower().endswith(".zip")
                    and (_is_path(archive) or RELATIVE.fullmatch(archive))
                    and not NODE_LOCAL.match(archive)
                    and not self._written(archive)
                ):
                    self.add("data.inputs", archive, " ".join(parts)[:160])
                return

    def _leftover(self, name, value):
        """A variable the text never uses nor exports, whose value a command is given outright
        (`MODEL_PATH=/models/x`, then `--llm /models/x/`): the assignment is left over, and the
        place is read where the command names it."""
        if self._unused is None:
            self._unused = _unused(self.text)
        place = value.rstrip("/")
        if name not in self._unused or len(place) < 2 or self._leftovers_tried >= LEFTOVERS:
            return False
        self._leftovers_tried += 1  # (each try scans the text: a bounded number, to stay linear)
        return self.text.count(place) > 1

    def _assignment(self, name):
        # The value the script gives the name (envs.script_variables): none when it gives two.
        value = self.expand(self.variables.values.get(name))
        if (
            not value
            and name in self.arguments
            and (
                DATA_VARIABLE.match(name)
                or INPUT_ARGUMENT.match(name)
                # (the checkpoint an evaluation scores, given as the script's argument:
                # `CHECKPOINT_PATH=$1` before `python main_eval.py checkpoint_path=…`)
                or (CHECKPOINT_ARGUMENT.match(name) and self._only_evaluates())
            )
        ):
            if name not in self.assigned:
                # The data the script is given as its argument (`data_path=$1`), by its name.
                self.assigned.add(name)
                self.add("data.inputs", f"${name}", f"{name}=$N")
            return
        if not value or name in self.assigned or self._leftover(name, value):
            return
        raw, _, end, _ = self.span
        if self._last_assigned is None or self._last_assigned[0] is not raw:
            last = {}
            for i, text in enumerate(raw):
                # (not a command's output, `X=$(…)`: known when it runs, no value here)
                if (
                    "=" in text
                    and (m := LINE_ASSIGNMENT.match(text))
                    and not text[m.end() :].lstrip("\"'").startswith(("$(", "`"))
                ):
                    last[m.group(1)] = i
            self._last_assigned = (raw, last)
        if self._last_assigned[1].get(name, -1) >= end:
            # (set again on a later line, `X=/a` then `X=/b`: the value is the later one's,
            # shown with its line when that line is read)
            return
        named_for_a_place = (
            DATA_VARIABLE.match(name)
            or OUTPUT_VARIABLE.match(name)
            or CHECKPOINT_VARIABLE.match(name)
        )
        if named_for_a_place and "#" in self.text and self._unsaid is None:
            # (used in lines commented out and nowhere else; _leftover set _unused)
            self._unsaid = _unused(COMMENT_LINE.sub("", self.text)) - self._unused
        if named_for_a_place and name in (self._unsaid or ()):
            # A place set and used only in lines commented out (`data_dir=/x`, then only
            # `# train -i $data_dir`), nor exported: the commands that took it are not run.
            return
        self.assigned.add(name)
        said = f"{name}={value}"
        # (a variable named for a folder, `MODEL_DIR=outputs/base`: its relative value of two
        # parts or more is that folder, not a Hub id)
        folder = name[-3:].upper() == "DIR" and RELATIVE_PLACE.fullmatch(value)
        if (DATA_VARIABLE.match(name) or MODEL_VARIABLE.match(name) and folder) and (
            _is_path(value) or folder
        ):
            self.add("data.inputs", value, said)
        elif MODEL_VARIABLE.match(name) and (_is_path(value) or HF_ID.fullmatch(value)):
            self._hub_or_path(value, said, dataset=False)
        elif OUTPUT_VARIABLE.match(name) and _is_path(value):
            self.add("output.artifacts", value, said)
        elif CHECKPOINT_VARIABLE.match(name) and _is_path(value) and not self._only_evaluates():
            self.add("request.checkpoint_location", value, said)

    def _dvc_store(self, m, line, said):
        """The store a `dvc pull`/`fetch` reads or a `dvc push` writes, when the script added
        that remote: the one named with `-r`, else the default (`-d`) or only one added."""
        named = DVC_REMOTE_OPTION.search(line, m.end())
        remotes = self.dvc_remotes
        if named:
            url = remotes.get(named.group(1))
        else:
            url = remotes.get("") or (next(iter(remotes.values())) if len(remotes) == 1 else None)
        if url:
            path = "output.artifacts" if m.group(0).split()[-1] == "push" else "data.inputs"
            self.add(path, url, f"{said} ({url})")

    def _of_line(self, name, judge):
        """judge(line) of the current line, judged once however many of its options ask (a
        line can hold thousands)."""
        if name not in self.line_judged:
            self.line_judged[name] = judge(self.current)
        return self.line_judged[name]

    def _has(self, pattern):
        """Whether the current line holds the pattern, looked for once per line."""
        return self._of_line(pattern, lambda line: pattern.search(line) is not None)

    def _only_evaluates(self):
        """Whether the script runs an evaluation and trains nothing: there a variable named for
        checkpoints (`CKPT_DIR=…`) names the ones it scores, read where an option takes it."""
        if self._evaluates is None:
            self._evaluates = _evaluates(self.text) and not TRAINS.search(self.text)
        return self._evaluates

    def _options(self, words):
        self._fairseq_data(words)
        onmt = "-model" in words and "-src" in words and self._has(ONMT_TRANSLATE)
        for i, word in enumerate(words):
            if word[:1] != "-":
                continue  # options only (a cheap test first: lines can be long)
            if onmt and word in ONMT_READS and i + 1 < len(words) and words[i + 1][:1] != "-":
                # OpenNMT's translator: the model and the texts it translates (and the
                # reference, `-tgt`) are read; `-output` is what it writes (SINGLE_DASH_LONG)
                value = self.expand(_unquote(words[i + 1]))
                if _is_path(value) or RELATIVE.fullmatch(value):
                    self.add("data.inputs", value, f"{word} {value}")
                continue
            option, eq, value = word.partition("=")
            if not eq:
                value = words[i + 1] if i + 1 < len(words) else ""
            if word[:2] == "-B" and word[2:3] in ("/", "$", "~", "."):
                # Apptainer's bind with its value attached (`-B/work/x:/work/x`), as getopt reads it.
                option, eq, value = "-B", "=", word[2:]
            if option in SINGLE_DASH_LONG:
                option = "-" + option  # (`-input x.a3m`: the program's `--input`)
            if option.startswith("--") and "." in option:
                # A program's grouped options (`--actor.model_name_or_path`, `--ckpt.output_dir`):
                # the last part is the option.
                option = "--" + option.rsplit(".", 1)[1]
            if option not in KNOWN_OPTIONS and self._named_option(option, value, words):
                continue
            if option not in KNOWN_OPTIONS and self._role_option(option, value):
                continue
            if option in LOADED_CHECKPOINT:
                self._loaded_checkpoint(option, value)
                continue
            if (
                "ck" in option
                and NAMED_CHECKPOINT.fullmatch(option)
                and not CHECKPOINT_OPTION.fullmatch(option)
                and not WRITES.search(option)
                and not RESTART_OPTION.search(option)
                and WEIGHTS_FILE.search(_unquote(value))
            ):
                self._loaded_checkpoint(option, _unquote(value))
                continue
            if (
                option == "--out"
                and self.made
                and (place := self.expand(value).rstrip("/")) in self.made
                and _statable(place)
            ):
                # a folder the job made for its program and hands it as `--out` (`mkdir -p
                # results/run`, then `train.py --out results/run`): what it writes there. (A
                # bare `--out` is as often a file's prefix or a step's scratch: unsaid.)
                self.add("output.artifacts", place, f"{option} {place}")
                continue
            if (
                option not in KNOWN_OPTIONS
                and ("out" in option or "artifact" in option)
                and (OUTPUT_NAMED.fullmatch(option) or OUTPUT_LAST.fullmatch(option))
                and not OWN_FILES.search(option)
                and not value.startswith("-")
            ):
                value = self.expand(value)
                if _is_path(value) or (RELATIVE.fullmatch(value) and "/" in value):
                    self.add("output.artifacts", value, f"{option} {value}")
                    self.produced.add(value.rstrip("/"))
                continue
            if (
                option not in KNOWN_OPTIONS
                and FORMAT_WORD.search(option)
                and FORMAT_INPUT.fullmatch(option)
                and not WRITES.search(option)
                # (by whole words: `--template_mmcif_dir` is no temporary folder)
                and not any(OWN_FILES.fullmatch(w) for w in re.split(r"[-_]", option[2:]))
                and value[:1] not in ("-", "")
            ):
                self._format_input(option, value)
                continue
            if (option in PAIRED_INPUT or MEDIA_INPUT.fullmatch(option)) and value[:1] != "-":
                # (a root of inputs beside a root of outputs says so of any program)
                roots = option in ("--input_root", "--input-root")
                self._paired_input(option, self.expand(value), words, any_program=roots)
                continue
            if option == "--data-dir" and value[:1] != "-":
                # (not a server's: `mlc_llm serve --data-dir D --output-dir O` keeps its own
                # files in D)
                if not self._of_line("serves", _serves):
                    self._paired_input(option, self.expand(value), words, any_program=True)
                continue
            if (
                option not in KNOWN_OPTIONS
                and ("input" in option or "data" in option or DESCRIBES_DATA.search(option))
                and INPUT_NAMED.fullmatch(option)
                and not OWN_FILES.search(option)
                and not WRITES.search(option)
                and not value.startswith("-")
            ):
                value = self.expand(value)
                if (
                    # (a relative folder too, when it has a `/`: `--data_root_dir data/1.0.0`)
                    (_is_path(value) or (RELATIVE.fullmatch(value) and "/" in value))
                    and not re.fullmatch(r"\$\{?\w+\}?/?", value)  # a variable with no value
                    and not NODE_LOCAL.match(value)  # made on the node by an earlier step
                    # (a settings file listing the data, unless the option names what
                    # describes the data: `--metadata_path m.json`)
                    and not (
                        CODE_FILE.search(value)
                        and not (value.endswith(".json") and DESCRIBES_DATA.search(option))
                    )
                ):
                    self.add("data.inputs", value, f"{option} {value}")
                continue
            if (
                "raw" in value
                and option[:2] == "--"
                and not WRITES.search(option)
                and not OWN_FILES.search(option)
                and not FETCHES.search(option)
                and not self._of_line("fetches", _fetches)
                and _raw_data(place := self.expand(value))
                and not NODE_LOCAL.match(place)
                and not self._written(place.rstrip("/"))
            ):
                # (`--ngsim_dir data/raw/ngsim`: the raw data, whatever the option is called)
                self.add("data.inputs", place, f"{option} {place}")
                continue
            if option not in KNOWN_OPTIONS and not (
                option[:6] in CHECKPOINT_STARTS and CHECKPOINT_OPTION.fullmatch(option)
            ):
                if (
                    SECRET_WORDS.search(option)
                    and SECRET_OPTION.search(option)
                    and (m := SECRET_VALUE.fullmatch(value))
                ):
                    # A key handed to the program, by the name it is kept under (never a value);
                    # one the script makes itself (`pw=$(uuidgen)`) is no key the job is given.
                    name = next(g for g in m.groups() if g)
                    if name not in self.generated:
                        self.add("work.credentials", name, f"{option} {value}")
                    continue
                if option in EMBEDDINGS_OPTIONS and self._has(ENCODES):
                    value = self.expand(value)
                    if _is_path(value):
                        self.add("output.artifacts", value, f"{option} {value}")  # its index
                        continue
                if (
                    option in EMBEDDINGS_OPTIONS
                    and "--persist" in self.current
                    and self._has(PERSISTS)
                    and _is_path(place := self.expand(value))
                ):
                    self.add("data.inputs", place, f"{option} {value}")  # loaded into the database
                    continue
                if (
                    "index" in option
                    and INDEX_OPTION.fullmatch(option)
                    and _is_path(place := self.expand(value))
                    and self._of_line("trainer", _trainer)
                ):
                    # the index of the data a trainer samples from (`train.py --index_db_path
                    # /x/uniref100.idx`): read (an indexing step's `--index_path` is what it
                    # builds)
                    self.add("data.inputs", place, f"{option} {place}")
                    continue
                if self.mounted and option.startswith("--") and value[:1] == "/":
                    self._through_mount(option, self.expand(value))
                if "output" in option and value and value[0] in "/$~.":
                    # A file the job makes itself (`--output-meg-ds-ratio-file $TRAIN_DATA_PATH`)
                    # is not one it reads, whatever the variable naming it is called.
                    self.produced.add(self.expand(value).rstrip("/"))
                elif (
                    option[:2] == "--"
                    and (("." in value and DATA_FILE.search(value)) or self._data_files_each(value))
                ) or (
                    # (short options too, but not a program's `-o` nor a test's `[ -f data/x ]`)
                    "/" in value
                    and option not in ("-o", "-O")
                    and DATA_FOLDER_FILE.match(value)
                    and not (option[1:2] != "-" and {"[", "[[", "test"} & set(words))
                ):
                    self._data_file(option, value)
                continue
            if not option.startswith("-") or value.startswith("-"):
                if option in RESUME_FLAGS or option in RESUME_FROM:  # a flag alone
                    self.add("request.preemptible", True, option)
                continue
            value = self.expand(value)
            said = f"{option} {value}"
            # (`--resume latest`: the newest checkpoint the run saved, open_clip's and others')
            if (
                option in RESUME_FLAGS and value.lower() in ("true", "1", "auto", "yes", "latest")
            ) or (
                option in RESUME_FLAGS | RESUME_FROM and not value  # a flag at the line's end
            ):
                self.add("request.preemptible", True, option)
            elif option in RESUME_FLAGS and _is_path(value):
                self.add("_resume", value, said)  # resumption if it is where the job saves
            elif (
                option in MODEL_OPTIONS
                or (
                    option in HUB_ID_OPTIONS
                    and (
                        HF_ID.fullmatch(value)
                        or (
                            CANONICAL_HUB_MODEL.fullmatch(value)
                            and not (
                                MODEL_ARGS.search(self.raw) and PRETRAINED_ARG.search(self.raw)
                            )
                        )
                        or (option in MODEL_PATH_OPTIONS and _is_path(value))
                        # (a model's name written as a path; not one built from a variable,
                        # `--model_name $OUT/exp1`, as often the run's own name)
                        or (
                            option in MODEL_NAME_OPTIONS
                            and _is_path(value)
                            and value[:1] != "$"
                            and not re.search(rf"{re.escape(option)}(?:=|\s+)[\"']?\$", self.raw)
                        )
                        or self._weights_file(value)
                        or self._model_variable(value)
                        or CHECKPOINT_PATH_VARIABLE.fullmatch(value)
                    )
                )
            ):
                if self._model_variable(value) and (
                    option not in MODEL_OPTIONS or not PATH_NAMED.search(value)
                ):
                    # (`--base_model $BASE_MODEL`: a Hub id; `--model_name_or_path $MODEL_PATH`
                    # names a folder as much as a Hub id, and stays as written)
                    self._unset_model(value, said)
                else:
                    self._hub_or_path(value, said, dataset=False)
            elif option in MIXER_OPTIONS:
                # open-instruct's `--dataset_mixer_list org/a 1.0 org/b 0.5`: datasets and weights
                for each in [value, *(_values_after(words, i + 2) if not eq else ())]:
                    if not re.fullmatch(r"[\d.]+%?", each):
                        self._hub_or_path(self.expand(each), f"{option} {each}", dataset=True)
            elif option in DATASET_OPTIONS:
                # (`--dataset_name "$1"`: a name the caller gives, a Hub id or one the program
                # knows by itself, is no place; a variable named for the data still is one)
                named_by_caller = option.endswith("name") and POSITIONAL.fullmatch(value)
                if self._data_file_read(value):
                    self.add("data.inputs", value, said)
                elif (
                    "--load_from_disk" in words
                    and not named_by_caller
                    and re.fullmatch(r"[\w.-]+", value := self.expand(value))
                ):
                    # (`--dataset_name final_dataset --load_from_disk`: a folder `save_to_disk`
                    # made, read by its relative name; not a Hub id)
                    self.add("data.inputs", value, said)
                elif (
                    not GENERATED_DATASET.fullmatch(value)
                    and not named_by_caller
                    and not (option == "--dataset-name" and BENCHMARK_DATASET_KIND.fullmatch(value))
                ):
                    self._hub_or_path(value, said, dataset=True)
            elif option in DATA_OPTIONS:
                self._data_values(option, value, _values_after(words, i + 2) if not eq else ())
            elif option in LORA_OPTIONS:
                for each in [value, *(_values_after(words, i + 2) if not eq else ())]:
                    # `name=org/adapter` or the adapter alone
                    self._hub_or_path(self.expand(each.rpartition("=")[2]), said, dataset=False)
            elif option in OUTPUT_OPTIONS and (
                (_is_path(value) and not JOB_TEMPORARY.match(value))
                or (option in OUTPUT_FILE_OPTIONS and RELATIVE.fullmatch(value))
                or _relative_folder(value, written=True)
            ):
                # (an option named for one file names a file, even by a bare name: `--outfile
                # preds`; a folder's bare name is as often a run's name, but not a place under
                # a folder named for results or data, `data/run-1`, nor one three parts deep)
                if ("$(" in value or "`" in value) and (written := self._as_written(option)):
                    value, said = written, f"{option} {written}"  # (as _checkpoint keeps it)
                self.add("output.artifacts", value, said)
            elif (
                option in RUN_DIR_OPTIONS
                and _is_path(value)
                and not JOB_TEMPORARY.match(value)
                and self._has(TRAINS)
            ):
                self.add("output.artifacts", value, said)
            elif option in RESUME_FROM and value:
                if self._own_checkpoint(value, words):
                    # Its own latest checkpoint, or one under a place the same command writes
                    # (`--resume_from_checkpoint out/last.ckpt --output_dir out`): it picks up
                    # where it stopped, as `--ckpt_path last`, and reads no one else's weights.
                    value = "last"
                self.add("_resume", value, said)  # resumption if it is where the job saves
            elif (
                option[2:6] == "save"
                and CHECKPOINT_OPTION.fullmatch(option)
                and _is_path(value)
                and saves_turned_off(self.current)
            ):
                # (`--save_path P --save_steps -1`: saving along the way turned off, P receives
                # only the final model, an output)
                self.add("output.artifacts", value, f"{said}, no saves along the way")
            elif CHECKPOINT_OPTION.fullmatch(option):
                self._checkpoint(option, value, said)
            elif option in HUB_OPTIONS and HF_ID.fullmatch(value):
                self.add("output.artifacts", f"hf://{value}", said)
            elif option in HUB_DATASET_OPTIONS and HF_ID.fullmatch(value):
                self.add("output.artifacts", f"hf://datasets/{value}", said)
            elif option in ("--save", "--load"):
                self._checkpoint(option, value, said)
            elif option in LOAD_PATH_OPTIONS and not _settings_file(value):
                # (a settings file it loads, `--load_path cfg.yaml`, is no checkpoint)
                self._checkpoint("--load", value, said)
            elif option in BIND_OPTIONS and self.binds:
                self._binds(value, said, words)
        for word in words if self._has(OVERRIDE_IN_LINE) else ():
            if m := OVERRIDE.match(word):
                self._override(m.group(1), m.group(2), word)
        for word in words if "//pretrained/" in self.current else ():
            # AudioCraft's (dora's) pretrained models on the Hub: `continue_from=//pretrained/
            # facebook/musicgen-small`, `compression_model_checkpoint=//pretrained/org/name`
            if (m := PRETRAINED_HUB.match(word)) and HF_ID.fullmatch(m.group(1)):
                self.add("data.inputs", f"hf://{m.group(1)}", word)
        if "_dir=" in self.current or "_folder=" in self.current or "_directory=" in self.current:
            # A top-level setting after the program (torchtune's, Hydra's `output_dir=/runs/x`,
            # llm-foundry's `save_folder=s3://…`).
            self._top_level(words)
        self._saves_in_output(words)
        if self.made and "=" in self.current:
            self._saves_in_made_folder(words)
        if "model_args" in self.current or "pretrained=" in self.current:
            self._model_args(words)

    def _format_input(self, option, value):
        """A path handed over under an option named for its kind of file (FORMAT_INPUT): what
        the program reads, the script's own argument too (`--fasta_paths "$1"`, kept as
        written); not a file an earlier step wrote, nor a settings file or a bare word."""
        value = self.expand(_unquote(value))
        if self.mounted and value[:1] == "/":
            self._through_mount(option, value)
        elif POSITIONAL.fullmatch(value) or (
            (_is_path(value) or RELATIVE_PLACE.fullmatch(value) or _file_word(value))
            and not re.fullmatch(r"\$\{?\w+\}?/?", value)  # a variable with no value
            and not NODE_LOCAL.match(value)
            and not self._written(value)
            and value.rstrip("/") not in self.produced
            and not (CODE_FILE.search(value) and not value.endswith(".json"))
        ):
            self.add("data.inputs", value, f"{option} {value}")

    def _data_file(self, option, value):
        """A table, array, map or tensor file (`--ports-csv data/ports.csv`, `--ais-glob "/scratch/ais/
        *.csv"`) handed to a program under an option not named for writing it, nor for the
        program's own files, is what the program reads; not one an earlier step wrote. (Long
        options, or a file in a folder named for data, `-p datasets/x.train`; `[ -f data.csv ]`
        tests a file, it does not hand it over.)"""
        if WRITES.search(option) or GENERATED_OPTION.match(option):
            return
        if OWN_FILES.search(option) and not (
            # (a translation's source side, `--src data/train.en`, `--valsrc data/val.en`: the
            # text read, not code, when it is a data file)
            SOURCE_SIDE.fullmatch(option) and not CODE_FILE.search(value)
        ):
            return
        value = self.expand(value)
        if self._written(value):
            self.consumed.add(value.rstrip("/"))  # (made by an earlier step for this one)
        elif (_is_path(value) or RELATIVE_PLACE.fullmatch(value)) and not NODE_LOCAL.match(value):
            self.add("data.inputs", value, f"{option} {value}")

    def _optional_options(self, words):
        """A variable the script leaves empty or sets to options, one branch each (`CKPT_ARG=""`,
        then `if [ -n "$LATEST" ]; then CKPT_ARG="--checkpoint $OUT/checkpoint-$LATEST"; fi`),
        used alone as a word (`${CKPT_ARG}`): its options are read where it is used, as the run
        that takes that branch gives them."""
        out = []
        for word in words:
            m = SUBMIT_VARIABLE.fullmatch(_unquote(word)) if "$" in word[:2] else None
            given = self.variables.choices.get(m.group(1) or m.group(2), ()) if m else ()
            options = [v for v in given if v.strip()]
            if len(options) == 1 < len(given) and options[0].lstrip()[:1] == "-":
                out += _words(options[0])
            else:
                out.append(word)
        return out

    def _data_files_each(self, value):
        """A variable alone the script sets to a data file in each of its branches (`TRAIN=
        a/train.jsonl`, else `TRAIN=b/train.jsonl`): a data file whichever the run takes, kept
        as written (`$TRAIN`)."""
        m = SUBMIT_VARIABLE.fullmatch(value) if value[:1] == "$" else None
        given = self.variables.choices.get(m and (m.group(1) or m.group(2)), ())
        return bool(given) and all(DATA_FILE.search(v) for v in given)

    def _fairseq_data(self, words):
        """fairseq's command-line tools take the binarized data folder as their first argument
        (`fairseq-train data-bin/wmt16 --arch …`, `fairseq-generate DATA --path ckpt.pt`): the
        data read."""
        for k, word in enumerate(words[:-1]):
            if FAIRSEQ_TOOL.fullmatch(word):
                value = words[k + 1]
                if value[:1] not in ("-", ""):
                    value = self.expand(_unquote(value))
                    if (_is_path(value) and not re.fullmatch(r"\$\{?\w+\}?/?", value)) or (
                        RELATIVE.fullmatch(value)
                    ):
                        self.add("data.inputs", value, f"{word} {value}")
                return

    def _named_option(self, option, value, words=()):
        """Options read by a word of their name or by the program they are given to: a Hub
        dataset named for its use, the repository an uploader writes to, a trainer's folder
        it resumes from. True when the option was read."""
        if not value or value.startswith("-"):
            return False
        said = f"{option} {value}"
        if option.endswith("dataset") and DATASET_NAMED.fullmatch(option):
            value = self.expand(value)
            if HF_ID.fullmatch(value) and value.split("/")[0] not in LOCAL_FOLDERS:
                self.add("data.inputs", f"hf://datasets/{value}", said)
                return True
        elif option in REPO_OPTIONS and self._has(UPLOADER):
            value = self.expand(value)
            if HF_ID.fullmatch(value):
                self.add("output.artifacts", f"hf://{self._repo_kind(option)}{value}", said)
                return True
        elif option in MODEL_DIR_OPTIONS and self._has(RESUMES_IN_LINE):
            self._checkpoint(option, self.expand(value), said)
            return True
        elif option in MODEL_DIR_OPTIONS and "--mode" in self.current and self._has(TRAIN_MODE):
            # (a trainer in a train mode that does not resume: the model it writes there)
            place = self.expand(value)
            if _is_path(place) or RELATIVE.fullmatch(place):
                self.add("output.artifacts", place, said)
                return True
        elif (
            option in MODEL_DIR_OPTIONS
            and _is_path(self.expand(value))
            and any(FORMAT_INPUT.fullmatch(w.partition("=")[0]) for w in words)
            and not self.mounted  # (a container's path: read through its mount)
        ):
            # (a predictor handed its structures or sequences by an option named for them,
            # FORMAT_INPUT, that neither trains, saves on a schedule nor resumes: the model's
            # parameters it loads, AlphaFold 3's `--json_path=… --model_dir=/params`; elsewhere
            # as often a trainer's own folder)
            self._loaded_checkpoint(option, value)
            return True
        return False

    def _role_option(self, option, value):
        """A report file a program is told to write (`--summary_path`) or a model named by its
        role (`--dpo_model_path`); True when the option was read. (Long options with a value.)"""
        if option[:2] != "--" or not value or value.startswith("-"):
            return False
        if REPORT_OPTION.fullmatch(option):
            value = self.expand(value)
            # (a bare name is a file when it has a data file's extension: `answer.jsonl`)
            bare_file = RELATIVE.fullmatch(value) and DATA_FILE.search(value)
            if _is_path(value) or RELATIVE_PLACE.fullmatch(value) or bare_file:
                self.add("output.artifacts", value, f"{option} {value}")
            return True
        if "model" in option and ROLE_MODEL_OPTION.fullmatch(option):
            self._hub_or_path(self.expand(value), f"{option} {value}", dataset=False)
            return True
        if option.endswith("model") and ROLE_MODEL_OPTION.fullmatch(f"{option}-path"):
            # The same role named without `_path` (`--gpt-model /models/x/`): a model it loads
            # when it is given a folder (a bare name is as often a setting: `--gpt-model gpt-4o`).
            place = self.expand(value)
            if _is_path(place) and not SUBMIT_VARIABLE.fullmatch(place):
                self._hub_or_path(place, f"{option} {value}", dataset=False)
                return True
        return False

    def _loaded_checkpoint(self, option, value):
        """`--checkpoint X` of a program that does not train, save or resume: X is read. A
        trainer's `--checkpoint X` is what it starts from: resumption when X lies in the place
        it saves to (`--checkpoint $OUT/checkpoint-$N … --output_dir $OUT --save_interval N`,
        settled in _settle), else nothing said."""
        if not value or value.startswith("-"):
            return
        if self._has(TRAINS) or self._has(SAVE_INTERVAL) or self._has(RESUMES_IN_LINE):
            if option in LOADED_CHECKPOINT and _is_path(resumed := self.expand(value)):
                self.add("_resume", resumed, f"{option} {resumed}")
            return
        value = self.expand(value)
        alone = SUBMIT_VARIABLE.fullmatch(value)
        given = self.arguments | self.variables.ambiguous | self.emptied
        if alone and not ({alone.group(1), alone.group(2)} & given):
            return  # a variable the file gives no value (or only an empty fallback): unsaid
        relative = RELATIVE_PLACE.fullmatch(value) and WEIGHTS_FILE.search(value)
        # (not a model an earlier step of the job wrote: `train.py --output runs/a` then
        # `sample.py --checkpoint runs/a/model.pt`)
        if (
            (_is_path(value) or relative)
            and not NODE_LOCAL.match(value)
            and not self._written(value)
        ):
            self.add("data.inputs", value, f"{option} {value}")

    def _repo_kind(self, option):
        """`datasets/` for a dataset repository: `--repo-type dataset`, or a variable named for a
        dataset (`--repo "$HF_DATASET"`)."""
        named = rf"{re.escape(option)}(?:=|\s+)[\"']?\$\{{?\w*DATASET"
        if self._has(DATASET_REPO) or re.search(named, self.raw, re.IGNORECASE):
            return "datasets/"
        return ""

    def _paired_input(self, option, value, words, any_program=False):
        """`--input_dir A` of a command that also writes `--output_dir B`: A is read, unless an
        earlier step wrote it, it is on the node's own disk, or it is a variable alone.
        (`--data-dir A` beside `--output-dir B` of any program: a program told where its data
        is and where to write is reading A; alone, a server keeps its own files there.)"""
        media = bool(MEDIA_INPUT.fullmatch(option)) or any_program
        if (
            not (media or self._has(CONVERTER))
            or not any(
                w.partition("=")[0] in PAIRED_OUTPUT
                # (a media tool's `--convert_output x.mp4` beside its `--video_path`; a path, not a
                # switch's value)
                or (
                    media
                    and "output" in w
                    and OUTPUT_LAST.fullmatch(w.partition("=")[0])
                    and _is_path(self.expand(_unquote(w.partition("=")[2] or after)))
                )
                for w, after in zip(words, [*words[1:], ""], strict=False)
            )
        ):
            return
        if (
            _is_path(value)
            and not re.fullmatch(r"\$\{?\w+\}?/?", value)
            and not NODE_LOCAL.match(value)
            and not self._written(value.rstrip("/"))
        ):
            self.add("data.inputs", value, f"{option} {value}")

    def _model_variable(self, value):
        """A variable the file gives no value (`MODEL_ID=$1`, the environment's, a SkyPilot env
        set at launch) whose name says it is the model (`$MODEL_ID`, `${BASE_MODEL}`)."""
        m = SUBMIT_VARIABLE.fullmatch(value) if value[:1] == "$" else None
        name = m and (m.group(1) or m.group(2))
        # (one the file gives several values, in the branches of a `case`, is not set at launch,
        # nor one it sets to a command's output: `MODEL_NAME=$(grep … model.yaml)`; a bare
        # `MODEL` is the model when it is the script's argument, `MODEL=$1`)
        return (
            bool(
                name
                and (
                    MODEL_VARIABLE.match(name)
                    or (name.upper() == "MODEL" and name in self.arguments)
                )
            )
            and name not in self.variables.ambiguous
            and name not in self.computed
        )

    def _unset_model(self, value, said):
        """Such a variable handed to an option that takes a Hub id (`--model $MODEL_NAME`): the
        model read, a Hub id set at launch (`hf://$MODEL_NAME`), or the script's argument
        (`MODEL_ID=$1`), kept by its name (`$MODEL_ID`) as every argument is."""
        m = SUBMIT_VARIABLE.fullmatch(value)
        if (m.group(1) or m.group(2)) in self.arguments:
            self.add("data.inputs", value, said)
        else:
            self.add("data.inputs", f"hf://{value}", said)

    def _model_args(self, words):
        """lm-evaluation-harness's `--model_args pretrained=org/name,peft=/adapters/x,dtype=auto`:
        the model it evaluates and an adapter loaded on it are what it reads. The same list given
        as a program's argument (lighteval's `lighteval vllm "pretrained=/m,dtype=bfloat16" …`)."""
        for i, word in enumerate(words):
            option, eq, value = word.partition("=")
            if i and _unquote(word).startswith("pretrained=") and "," in word:
                option, value = "model arguments", word
            elif option not in ("--model_args", "--model-args"):
                continue
            else:
                value = value if eq else (words[i + 1] if i + 1 < len(words) else "")
            for pair in _unquote(value).split(","):
                # (quotes escaped inside `bash -c "…"` are left on the pair's ends)
                key, eq, given = pair.strip(" \\\"'").partition("=")
                if eq and key in ("pretrained", "peft") and given:
                    given = self.expand(given)
                    self._hub_or_path(given, f"{option} {key}={given}", dataset=False)

    def _top_level(self, words):
        done = set()
        for word in words[1:]:
            key, _, value = word.partition("=")
            value = self.expand(_unquote(value))
            # also a section's (`training.output_dir=train/`, an OmegaConf dotted override);
            # the key says its value is a folder, relative ones too
            if key.rsplit(".", 1)[-1] in ("output_dir", "out_dir", "base_output_directory") and (
                _is_path(value) or RELATIVE.fullmatch(value)
            ):
                # (MaxText's `base_output_directory=`, where it also checkpoints when told to:
                # `enable_checkpointing=true`; its own trainer does unless told not to, and
                # writes its metrics there too)
                if key == "base_output_directory" and _maxtext_saves(words, self.text):
                    if not NODE_LOCAL.match(value) and "request.checkpoint_location" not in done:
                        self.add("request.checkpoint_location", value, word)
                        done.add("request.checkpoint_location")
                    path = "output.artifacts"
                else:
                    saves = key == "base_output_directory" and any(
                        SAVES_ARGUMENT.fullmatch(w) for w in words[1:]
                    )
                    path = "request.checkpoint_location" if saves else "output.artifacts"
            elif key in ("save_folder", "checkpoint_dir", "ckpt_dir") and (
                _is_path(value) or CLOUD_URI.fullmatch(value)
            ):
                path = "request.checkpoint_location"
            else:
                continue
            if path not in done and not NODE_LOCAL.match(value):
                self.add(path, value, word)
                done.add(path)

    def _checkpoint(self, option, value, said):
        """Where a checkpoint option puts them (or, for --load, what it loads): a path or a
        URI. A value a command computes (`CKPT=$(pwd)/ckpt`) is kept as the script writes it
        (`$CKPT`). A plain --save of a run's name is a name, not a place."""
        if "$(" in value or "`" in value:
            if not (written := self._as_written(option)):
                return
            value, said = written, f"{option} {written}"
        if option in ("--save", "--load"):
            if option == "--save" and not _is_location(value):
                self.add("remark", f"{said}: a name for the run, not a place.", said)
            elif (
                _is_path(value)
                or CLOUD_URI.fullmatch(value)
                or (
                    option == "--save" and _is_location(value)  # (`--load org/x` may be the Hub's)
                )
            ):
                self.add(f"_{option[2:]}", value, said)  # paired up in _settle
        elif NODE_LOCAL.match(value):
            return  # the node's own disk: nothing there outlives the job to resume from
        elif CHECKPOINT_FILE_OPTION.fullmatch(option) and not (
            self._has(SAVE_INTERVAL) or self._has(RESUMES_IN_LINE)
        ):
            # Not where it keeps them: a checkpoint it loads. One file of weights
            # (`--checkpoint_path /runs/best.ckpt` in an inference step) is the model it reads.
            if _is_path(value) and WEIGHTS_FILE.search(value):
                self.add("data.inputs", value, said)
            return
        elif (
            self._of_line("evaluates", lambda line: _evaluates(line, first=True))
            and not SAVE_OPTION.fullmatch(option)
            and not self._has(TRAINS)
            and not self._has(SAVE_INTERVAL)
            and not self._has(RESUMES_IN_LINE)
        ):
            # The checkpoints an evaluation scores: read, not where the job keeps its own.
            if _is_path(value) or CLOUD_URI.fullmatch(value):
                self.add("data.inputs", value, said)
            return
        elif (
            self._of_line("answers", lambda line: _answers(line))
            and not SAVE_OPTION.fullmatch(option)
            and not self._has(TRAINS)
            and not self._has(SAVE_INTERVAL)
            and not self._has(RESUMES_IN_LINE)
        ):
            # The checkpoint a chat or generation program loads (`example_chat_completion.py
            # --ckpt_dir llama-2-7b-chat/`): the model it reads, not where the job keeps its own;
            # a repository the job cloned there is read from where it was cloned from.
            if (
                _is_path(value) or CLOUD_URI.fullmatch(value) or RELATIVE.fullmatch(value)
            ) and value.rstrip("/").rsplit("/", 1)[-1] not in self.repos.keys() | self.hub_clones:
                self.add("data.inputs", value, said)
            return
        elif not (
            _is_path(value)
            or CLOUD_URI.fullmatch(value)
            or RELATIVE.fullmatch(value)
            # a folder's name given by an option named for it (`--checkpoint_foldername 2`)
            or (option.endswith("name") and re.fullmatch(r"[\w.-]+", value))
        ):
            return
        elif SAVE_OPTION.fullmatch(option) and (
            (self._has(CONVERTER) or (self._has(PRODUCER) and not self._has(TRAINS)))
            and not self._has(SAVE_INTERVAL)
            and not self._has(RESUMES_IN_LINE)
        ):
            if _is_path(value) or CLOUD_URI.fullmatch(value) or RELATIVE.fullmatch(value):
                self.add("output.artifacts", value, said)  # the model a converter makes
        elif not SAVE_PLACE.fullmatch(option) or self._has(SAVE_INTERVAL):
            self.add("request.checkpoint_location", value, said)
        elif (
            _is_path(value)
            or CLOUD_URI.fullmatch(value)
            # a file of weights under the working directory (`trained/ppo.pt`), or a folder
            # three parts deep there (`exp/pascal/r101/92`)
            or (RELATIVE.fullmatch(value) and WEIGHTS_FILE.search(value))
            or _relative_folder(value)
        ):
            self.add("output.artifacts", value, said)  # the model it saves at the end

    def _as_written(self, option):
        """The variable an option is given, as the script writes it (`--output_dir "$OUT"`), for a
        value a command computes (`OUT=$(pwd)/out`): known only when the job runs."""
        raw, start, end, _ = self.span
        text = " ".join(raw[start:end]) if end > start else self.raw
        word = rf"{re.escape(option)}(?:=|\s+)[\"']?(\$\{{?\w+\}}?[^\s\"';|&]*)"
        return m.group(1) if (m := re.search(word, text)) else None

    def _override(self, key, value, said):
        """A configuration override (Hydra, OmegaConf: `data.train_files=…`, `model.path=…`,
        `checkpointing.checkpoint_dir=…`), read by its last keys."""
        value = self.expand(_unquote(value))
        if value[:1] == "[" and value[-1:] == "]" and "://" not in value:
            # a list (`data.train_files=[a.parquet,b.parquet]`): each item is one value
            for item in value[1:-1].split(","):
                if item := item.strip(" \"'"):
                    self._override(key, item, said)
            return
        parts = key.lower().split(".")
        last, parent = parts[-1], (parts[-2] if len(parts) > 1 else "")
        placed = _is_path(value) or ("/" in value and "://" not in value and "$" not in value)
        if placed and (
            last in OVERRIDE_CHECKPOINT
            or (parent in CHECKPOINT_SECTIONS and last in CHECKPOINT_PLACES)
        ):
            if not NODE_LOCAL.match(value):  # the node's own disk outlives nothing
                self.add("request.checkpoint_location", value, said)
        elif (
            last in OVERRIDE_DATA
            # a data section's paths (`data.path=`, OLMo-core's `dataset.paths=[…]`,
            # `dataset.label_mask_paths=[…]`)
            or (
                parent in ("data", "dataset")
                and (last in ("path", "paths") or last.endswith("_paths"))
            )
        ) and placed:
            self.add("data.inputs", value, said)
        elif (OVERRIDE_INPUT.fullmatch(last) and placed and not WRITES.search(last)) or (
            OVERRIDE_WEIGHTS.fullmatch(last)
            and WEIGHTS_FILE.search(value)
            and not WRITES.search(last)
            and not self._has(TRAINS)
            and (_is_path(value) or RELATIVE_PLACE.fullmatch(value))
        ):
            if not NODE_LOCAL.match(value) and not self._written(value):
                self.add("data.inputs", value, said)
        elif (last in OVERRIDE_OUTPUT or last == "output_path") and placed:
            if last == "output_prefix" and "/" in value and not value.endswith("/"):
                # the start of the files' names (`…/design` writes design_0.pdb, …): the
                # folder they go to is the output
                value = value.rpartition("/")[0]
            if not NODE_LOCAL.match(value):
                self.add("output.artifacts", value, said)
        elif (
            OUTPUT_SECTIONS & set(parts[:-1])
            and "/" in value
            and _file_word(value)
            and not NODE_LOCAL.match(value)
        ):
            # a file or folder set under an output section (anemoi-inference's
            # `output.netcdf=out/fc.nc`, `output.extract_lam.output.netcdf=…`): written there,
            # the array task's index kept as written; but what the output is made from, set
            # there too (`output.grib.template=/proj/t.grib`, `output.config=…`), is read
            own = parts[max(i for i, p in enumerate(parts[:-1]) if p in OUTPUT_SECTIONS) + 1 :]
            reads = READ_UNDER_OUTPUT.intersection(p.lower() for p in own)
            self.add("data.inputs" if reads else "output.artifacts", value, said)
        elif last in OVERRIDE_RESUME and value.lower() in RESUMES:
            # (stated only with a checkpoint place: see _settle)
            self.add("_resume", "auto", said)
        elif (last in OVERRIDE_MODEL or (last == "path" and parent == "model")) and value:
            if _is_path(value) or (placed and value.split("/")[0].lower() in LOCAL_MODEL_FOLDERS):
                self.add("data.inputs", value, said)
            elif HF_ID.fullmatch(value):
                self.add("data.inputs", f"hf://{value}", said)

    def _saves_in_made_folder(self, words):
        """A trainer told to save on a schedule in its settings (`checkpoint_every_n_steps=500`)
        and handed, as a bare argument, a folder the job made for it (`mkdir -p $OUT`, then
        `trainer $OUT --config …`): it keeps its checkpoints there."""
        saves = next((w for w in words[1:] if SAVES_ARGUMENT.fullmatch(w)), None)
        if not saves:
            return
        for word in words[1:]:
            if word.startswith("-") or "=" in word:
                continue
            value = self.expand(_unquote(word)).rstrip("/")
            if value in self.made and (_is_path(value) or CLOUD_URI.fullmatch(value)):
                self.add("request.checkpoint_location", value, f"{word} with {saves}")
                return

    def _saves_in_output(self, words):
        """`--output_dir P --save_steps N` (a trainer saving every N steps): P holds the
        checkpoints. So does another output place on the line (`--output_path`,
        `--output_model_dir`, `--artifact-dir`) with a save interval (`--save_interval`), and a
        program's grouped options by their last part (`--train.output_dir P --train.save_steps
        N`, as VeOmni's and other trainers' dotted settings are written)."""
        if not self._has(SAVES_IN_LINE):
            return
        words = [_last_part(w) for w in words]
        if not SAVES_EVERY.intersection(w.partition("=")[0] for w in words):
            return
        if NO_SAVE.intersection(words):
            # (`--no_save`, fairseq's `--no-save`: the run is told to keep no checkpoints,
            # whatever interval it is given; the folder is where its results go)
            return
        values = dict(zip(words, [*words[1:], ""], strict=False))
        values.update(w.partition("=")[::2] for w in words if w.startswith("--") and "=" in w)
        if any(values.get(o, "").lower() in ("no", "0", "") for o in SAVES_EVERY if o in values):
            return
        places = [w.partition("=")[0] for w in words if w.startswith("--")]
        for option in [
            o
            for o in places
            if o in ("--output_dir", "--output-dir", "--output_path", "--output-path", "--logs")
            or (OUTPUT_NAMED.fullmatch(o) and not OWN_FILES.search(o))
        ]:
            value = self.expand(values.get(option, ""))
            if ("$(" in value or "`" in value) and (written := self._as_written(option)):
                value = written  # a value a command computes, kept as the script writes it
            if _is_path(value) or RELATIVE.fullmatch(value):
                saves = next(o for o in SAVES_EVERY if o in values)
                said = f"{option} {value} with {saves} {values[saves]}"
                self.add("request.checkpoint_location", value, said)
                self.found = [
                    p for p in self.found if not (p.path == "output.artifacts" and p.value == value)
                ]
                return

    def _in_image(self, words, start):
        """A program in a container (pyxis, docker) that names a path in the image's own folders
        (`/workspace/bert/vocab`) not mounted from the host reads the image, not data."""
        if "--container-image" not in self.current and not DOCKER_RUN.search(" ".join(words[:8])):
            return
        targets = [
            self.expand(spec).split(":")[1].rstrip("/")
            for i, w in enumerate(words)
            for value in [
                w.partition("=")[2] if "=" in w else (words[i + 1] if i + 1 < len(words) else "")
            ]
            if w.partition("=")[0] in BIND_OPTIONS
            for spec in value.split(",")
            if spec.count(":") >= 1
        ]

        def mounted(value):
            return any(value == t or value.startswith(t + "/") for t in targets if t)

        self.found[start:] = [
            p
            for p in self.found[start:]
            if not (
                p.path in ("data.inputs", "output.artifacts")
                and isinstance(p.value, str)
                and IMAGE_FOLDERS.match(p.value)
                and not mounted(p.value)
            )
        ]

    def _data_values(self, option, value, more):
        """`--data_path a/b c/d /lustre/e`: a data option takes one or more values, each a path
        or a Hub dataset (`org/name`, never a folder such as `data/train`). A variable alone
        that holds a name (`$EVAL_SET_NAME`, a loop's over `ego movie`) is not a place."""
        for each in [value, *more]:
            if each[:1] == "$" and self._names_a_setting(each):
                continue
            each = self.expand(each)
            if (
                _is_path(each)
                or _relative_folder(each)
                # two parts under a folder named for data (`train.py --data data/renders`) given
                # to a trainer, that no earlier step of the job fills: the data it trains on (a
                # preparing step's `--data-path data/train` as often names what it fills)
                or (
                    _relative_folder(each, written=True)
                    and each.split("/")[0].lower() in DATA_FOLDERS
                    and self._of_line("trainer", _trainer)
                    and not self._written(each)
                )
                or (option == "--data" and _dataset_description(each))
                # a folder under one named for data chosen by the script's argument (`corpus=$1`,
                # then `run.py --do_train --data_path data/${corpus}`) given to a trainer: the
                # data it trains on, as written
                or (
                    "$" in each
                    and self._argument_folder(each)
                    and self._of_line("trainer", _trainer)
                )
                # (a data file by its kind under an option named for the data or the input:
                # `--input data/x.csv`, `--input_file cohort.parquet`)
                or (("data" in option or "input" in option) and self._data_file_read(each))
                or _relative_glob(each)
            ):
                self.add("data.inputs", each, f"{option} {each}")
            elif HF_ID.fullmatch(each) and each.split("/")[0].lower() not in LOCAL_FOLDERS:
                self.add("data.inputs", f"hf://datasets/{each}", f"{option} {each}")

    def _argument_folder(self, value):
        """`data/${corpus}` (or `data/$corpus`) where the script set `corpus` from its
        arguments: one folder under a folder named for data (DATA_FOLDERS)."""
        m = ARGUMENT_FOLDER.fullmatch(value)
        return (
            bool(m)
            and m.group(1).lower() in DATA_FOLDERS
            and (m.group(2) or m.group(3)) in self.arguments
        )

    def _data_file_read(self, value):
        """A data file by its relative name (`_data_file_named`) that no earlier step of the
        job wrote, by a proposal or by a redirect (`cat parts/* > train.jsonl`)."""
        if not _data_file_named(value) or self._written(value):
            return False
        return not self._redirected_before(value)

    def _redirected_before(self, *names):
        """Whether a step up to this command wrote one of the files with `>` (one written only
        later, `python make_prompts.py > prompts.txt` after the read, was there before)."""
        return any(
            self.redirected.get(name.removeprefix("./"), self.last_line + 1) <= self.last_line
            for name in names
        )

    def _names_a_setting(self, value):
        m = SUBMIT_VARIABLE.fullmatch(value)
        name = m and (m.group(1) or m.group(2))
        return bool(name) and (name.upper().endswith("NAME") or name in self.named_loops)

    def _program_output(self, words):
        """`-o`/`--output` of the job's own program (`python convert.py -o /scratch/out`,
        `python -m tool.dedup --output out/a/b`, a script in R or Julia too: `Rscript bp.R -p
        data/x.txt -o data/y.txt`, `julia run.jl -o out/`) or of a profiler (`kernprof -o run.lprof`,
        `nsys profile -o report`) names what it writes. The line is walked once: a line can
        hold thousands of options, and what precedes each is known from the walk."""
        program = False  # a Python program or a profiler named so far on the line
        starts = [0, 0]  # where the command before this one, and this one, start
        read = 0  # how far this command's bare arguments were read, as `(previous, word)` pairs
        for i, word in enumerate(words[:-1]):
            if word in (";", "&&", "||", "|") or (word.endswith(";") and word != ";"):
                starts, read = [starts[1], i + 1], i + 1
            # (a Python module run as the program, `python -m tool.dedup`, is one too)
            program = program or (
                i > 0
                and (
                    words[i - 1].endswith(SCRIPT_PROGRAMS)
                    or words[i - 1].rsplit("/", 1)[-1] in PROFILERS
                    or (
                        words[i - 1] == "-m"
                        and i > 1
                        and words[i - 2].rsplit("/", 1)[-1].startswith("python")
                    )
                )
            )
            if word not in ("-o", "--output", "-output"):
                continue
            value = self.expand(words[i + 1].removesuffix(";"))  # (`-o out;`: `;` ends the command)
            alone = SUBMIT_VARIABLE.fullmatch(value)
            name = alone and (alone.group(1) or alone.group(2))
            if name in self.computed and name not in self.dated:
                # A value a command makes up (`ARGS=$(echo … | sed …)`) names no place; a date
                # stamp (`NOW=$(date +%F)`, a file named for the day) is kept, as SHELL_LEFT has it.
                continue
            if (
                program
                and (_is_path(value) or OUTPUT_FILE.search(value) or _relative_folder(value, True))
            ) or (word == "--output" and self._tool_output(words, starts, i, value)):
                # (or an installed tool's data file: `moozy encode a.h5 --output case.h5`)
                folder, _, name = value.rpartition("/")
                if (
                    folder
                    and name
                    and not _statable(name)
                    and _statable(folder)
                    and _is_path(folder)
                ):
                    # a file named by the program's own fields (`{dataset}_{task}.json`): the
                    # folder it is written in is the place the job names
                    value = folder
                self.add("output.artifacts", value, f"{word} {value}")
                self._positional_inputs(words[max(starts[0], read - 1) : i])
                read = i
        if "-i" in words and "-o" in words:
            self._program_input(words)

    def _notebook(self, words):
        """A notebook run as a batch step writes its executed copy, the job's result:
        papermill's second notebook (`papermill in.ipynb out.ipynb -p alpha 0.1`, the values
        after `-p`/`-r` not counted) and nbconvert's `--output` when it executes
        (`jupyter nbconvert --execute --to notebook --output run.exe.ipynb in.ipynb`). The
        notebook run is the job's code; a copy rewritten in place (`--inplace`) or left where
        nbconvert puts it by default is not named, so it is left unsaid."""
        for command in _commands(words):
            bases = [_base(w) for w in command]
            if "papermill" in bases:
                given, skip = [], 0
                for word in command[bases.index("papermill") + 1 :]:
                    if skip:
                        skip -= 1
                    elif word in ("-p", "--parameters", "-r", "--parameters_raw"):
                        skip = 2
                    elif word.endswith(".ipynb") and not word.startswith("-"):
                        given.append(self.expand(word))
                if len(given) > 1:
                    self.add("output.artifacts", given[1], f"papermill {given[0]} {given[1]}")
            elif any(b in ("nbconvert", "jupyter-nbconvert") for b in bases) and (
                "--execute" in command and "--inplace" not in command
            ):
                for i, word in enumerate(command):
                    option, eq, value = word.partition("=")
                    if option != "--output" or not (eq or i + 1 < len(command)):
                        continue
                    value = self.expand(value if eq else command[i + 1])
                    if value and not value.startswith("-"):
                        self.add("output.artifacts", value, f"nbconvert --output {value}")

    def _crawled_site(self, words):
        """A program named for fetching pages (`crawl_site.py`, `scrape.py`) given the site by an option named for it (`--url "$TARGET_URL"`,
        `--start-urls`): the site is what it reads. (A client's `--url` names a server it asks,
        not data, and its program is not named so; nor is an API's or metrics endpoint, or a
        host left to run time.)"""
        for command in _commands(words):
            program = next((_base(w) for w in command if w.endswith(".py")), "")
            if not CRAWLER_PROGRAM.search(program):
                continue
            for i, word in enumerate(command):
                option, eq, value = word.partition("=")
                if option not in SITE_OPTIONS or not (eq or i + 1 < len(command)):
                    continue
                value = self.expand(_unquote(value if eq else command[i + 1]))
                if (
                    URL.fullmatch(value)
                    and not NOT_DATA_URL.search(value)
                    and not NOT_A_SITE.search(value)
                ):
                    self.add("data.inputs", value, f"{option} {value}")

    def _aligner(self, words):
        """`bwa mem [options] INDEX READS [MATES]` (`bwa-mem2 mem` too): the reference index and
        the reads are what the aligner reads (its options' values are not)."""
        for command in _commands(words):
            at = next(
                (i for i, w in enumerate(command[:-1]) if _base(w) in ("bwa", "bwa-mem2")), -1
            )
            if at < 0 or command[at + 1] != "mem":
                continue
            skip, given = False, []
            for word in command[at + 2 :]:
                if skip:
                    skip = False
                elif word.startswith("-") and len(word) > 1:
                    skip = len(word) == 2 and word[1] in BWA_VALUED
                elif word in (">", "2>", ">>") or word.startswith((">", "2>")):
                    break
                else:
                    given.append(self.expand(word))
            for value in given[:3]:
                if _is_path(value) or RELATIVE.fullmatch(value):
                    self.add("data.inputs", value, f"bwa mem {value}")

    def _predictor(self, words):
        """Structure predictors that take their input, and some their output folder, as bare
        arguments (PREDICTOR_ARGUMENTS): `colabfold_batch IN OUT`, `boltz predict IN`,
        `chai-lab fold IN OUT`, `run_pretrained_openfold.py FASTA_DIR MMCIF_DIR`. An option's
        value is not an argument (a path after an option named for a place is that option's);
        a file an earlier step wrote is not read."""
        for command in _commands(words):
            bases = [_base(w) for w in command]
            for (tool, step), places in PREDICTOR_ARGUMENTS.items():
                if tool not in bases:
                    continue
                at = bases.index(tool) + 1
                if step:
                    if command[at : at + 1] != [step]:
                        continue
                    at += 1
                given = []
                for previous, word in zip(command[at - 1 :], command[at:], strict=False):
                    if word.startswith("-") or word in (">", ">>", "2>", "|"):
                        continue
                    value = self.expand(_unquote(word))
                    if NUMBER.fullmatch(value):
                        continue  # (a number is an option's value, never a place)
                    valued = previous.startswith("-") and "=" not in previous
                    if valued and (not _file_word(value) or PLACE_OPTION.search(previous)):
                        continue  # (the option's value)
                    if _file_word(value) or (
                        # a bare name where no option comes before it (`colabfold_batch 10U.fasta
                        # 10U`, `… $1 result_quick`), of a tool whose bare arguments are all
                        # places: the tool's argument, whatever its name
                        not valued and tool in ONLY_PLACES and BARE_ARGUMENT.fullmatch(value)
                    ):
                        given.append(value)
                        if len(given) == len(places):
                            break
                if len(given) < len(places) and places[-1] == "output.artifacts":
                    continue  # (roles go by order: a place missing would make the output read)
                for path, value in zip(places, given, strict=False):
                    said = f"{tool}{' ' + step if step else ''} {value}"
                    if path == "output.artifacts":
                        self.add(path, value, said)
                        self.produced.add(value.rstrip("/"))
                    elif not NODE_LOCAL.match(value) and not self._written(value):
                        self.add(path, value, said)

    def _bids_app(self, words):
        """A BIDS App (fMRIPrep, QSIPrep, MRIQC, XCP-D…), whose command line is the standard's
        `APP BIDS_DIR OUTPUT_DIR participant|group [options]`: the dataset read, the
        derivatives written. The two folders are the last words that are not options (or an
        option's value) before the analysis level; both must be paths."""
        for command in _commands(words):
            levels = [i for i, w in enumerate(command) if w in BIDS_LEVELS]
            if not levels:
                continue
            # An option before a folder may take it as its value (`-w /work`) or be a switch
            # (`--low-mem`): read as a value first, as a switch when that leaves no two folders.
            for valued in (True, False):
                given, i = self._bids_folders(command, levels[0] - 1, valued)
                if len(given) == 2 and all(_is_path(v) or "/" in v for v in given):
                    break
            else:
                continue
            if not any(BIDS_APP.search(_base(w)) for w in command[: i + 1]):
                continue  # (two paths before `group` in any other program's line say nothing)
            output, dataset = given
            if not NODE_LOCAL.match(dataset) and not self._written(dataset):
                self.add("data.inputs", dataset, f"BIDS dataset {dataset}")
            if not NODE_LOCAL.match(output):
                # (derivatives on the node's own disk are copied out later, or lost)
                self.add("output.artifacts", output, f"BIDS derivatives {output}")
            self.produced.add(output.rstrip("/"))

    def _bids_folders(self, command, i, valued):
        """The last two words before command[i + 1] that are not options (nor, when `valued`,
        an option's value), last first, and the index left of them."""
        given = []
        while i >= 0 and len(given) < 2:
            word = command[i]
            if word.startswith("-"):
                i -= 1
                continue
            if valued and i > 0 and command[i - 1].startswith("-") and "=" not in command[i - 1]:
                i -= 2  # an option's value (`-w /work`)
                continue
            given.append(self.expand(_unquote(word)))
            i -= 1
        return given, i

    def _samtools(self, words):
        """`samtools sort|view|index|… [options] FILE`: the file named first is read (a view's
        later words are regions); `-o F` or `> F` is what it writes. A file an earlier step
        wrote is the job's own."""
        for command in _commands(words):
            at = next(
                (i for i, w in enumerate(command[:-1]) if w.rsplit("/", 1)[-1] == "samtools"), -1
            )
            if at < 0 or command[at + 1] not in SAMTOOLS_READS:
                continue
            given, written, skip = [], [], None
            for word in command[at + 2 :]:
                if word.startswith("#"):
                    break
                if skip:
                    if skip in ("-o", ">"):
                        written.append(self.expand(word))
                    skip = None  # (another option's value)
                elif word in (">", "-o") or (word.startswith("-") and word[1:] in SAMTOOLS_VALUED):
                    skip = word
                elif not word.startswith("-"):
                    given.append(self.expand(word))
            for value in given[:1]:
                if _file_word(value) and not {value, self._in_cwd(value)} & self.produced:
                    # (also named relative to the folder the job went to, after a `cd`)
                    self.add("data.inputs", value, f"samtools {command[at + 1]} {value}")
            for value in written:
                if _file_word(value):
                    value = self._in_cwd(value)  # (in the folder the job went to)
                    self.add("output.artifacts", value, f"samtools {command[at + 1]} -o {value}")
                    self.produced.add(value)

    def _cdo(self, words):
        """CDO, the Climate Data Operators (`cdo -O -remapcon,grid.nc in.nc out.nc`, `cdo -f nc4
        mergetime a.nc b.nc out.nc`): after its options, the operators (the first may be written
        without its dash; a file among an operator's parameters, as the target grid of a remap,
        is read), then the files: the last is what it writes, the others are read. An operator
        that only prints (`sinfo`, `griddes`) reads them all. A file an earlier step wrote is the
        job's own."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if _base(w) == "cdo"), -1)
            if at < 0:
                continue
            operators, files, skip = [], [], False
            for word in command[at + 1 :]:
                if word.startswith(("#", ">", "2>", "&>", "<")) or word in ("&", "\\"):
                    break
                if skip:
                    skip = False  # (an option's value)
                elif word in CDO_VALUED:
                    skip = True
                elif word.startswith("--") or (word.startswith("-") and len(word) == 2):
                    continue  # a flag (`-O`, `-L`, `--no_history`)
                elif word.startswith("-") or (not operators and not files):
                    operators.append(word.lstrip("-"))
                elif word not in ("[", "]", ":"):
                    files.append(self.expand(_unquote(word)))
            if not operators:
                continue
            said = " ".join(command[at:])[:200]
            for operator in dict.fromkeys(operators):  # (each operator once)
                for param in operator.split(",")[1:]:
                    value = self.expand(_unquote(param))
                    if (
                        _file_word(value)
                        and CDO_PARAM_FILE.fullmatch(value)
                        and not NUMBER.fullmatch(value)
                        and not {value, self._in_cwd(value)} & self.produced
                    ):
                        self.add("data.inputs", value, said)
            first = operators[0].split(",")[0]
            writes = 0 if CDO_PRINTS.fullmatch(first) else 2 if first in CDO_WRITES_TWO else 1
            read, written = files[: len(files) - writes], files[len(files) - writes :]
            for value in dict.fromkeys(read):
                if _file_word(value) and not {value, self._in_cwd(value)} & self.produced:
                    self.add("data.inputs", value, said)
            for value in written:
                if _file_word(value) and not NODE_LOCAL.match(value):
                    self.add("output.artifacts", value, said)
                    self.produced.add(value)

    def _star(self, words):
        """STAR's files by its options: the genome FASTA, the annotation and the reads are read;
        `--genomeDir` is the index it builds (`--runMode genomeGenerate`) or the one it aligns
        against; `--outFileNamePrefix` is where an alignment's files go."""
        for command in _commands(words):
            if not any(w.rsplit("/", 1)[-1] == "STAR" for w in command):
                continue
            given = _option_values(command)
            builds = (given.get("--runMode") or [""])[0] == "genomeGenerate"
            for option in ("--genomeDir", *STAR_READS):
                path = "output.artifacts" if option == "--genomeDir" and builds else "data.inputs"
                for value in given.get(option, []):
                    for each in value.split(",") if option == "--readFilesIn" else [value]:
                        each = self.expand(each)
                        if _file_word(each) and each not in self.produced:
                            self.add(path, each, f"STAR {option} {each}")
            for value in given.get("--outFileNamePrefix", [])[:1]:
                self.add(
                    "output.artifacts", self.expand(value), f"STAR --outFileNamePrefix {value}"
                )

    def _seq_tool(self, words):
        """Sequencing tools (SEQ_TOOLS) by the options naming their files: `gatk HaplotypeCaller
        -R ref.fa -I in.bam -O out.vcf`, `bowtie2 -x idx -U r.fq -S out.sam`, `fastqc -o qc/
        r1.fq.gz`, `minimap2 -ax asm5 ref.fa query.fa > out.sam` (its output by `-o` or `>`).
        Relative names are in the folder the job went to; a file an earlier step wrote is the
        job's own, and what the tool writes is, for the steps after it."""
        for command in _commands(words):
            bases = [_tool_name(_base(w)) for w in command]
            built = next((i for i, b in enumerate(bases) if b in INDEX_BUILDERS), None)
            if built is not None:
                self._index_built(command[built + 1 :])
                continue
            at, spec = next(
                (
                    (
                        i,
                        SEQ_TOOLS.get(f"{b} {command[i + 1]}" if i + 1 < len(command) else b)
                        or SEQ_TOOLS.get(b),
                    )
                    for i, b in enumerate(bases)
                    if b in SEQ_TOOL_NAMES
                ),
                (-1, None),
            )
            if spec is None:
                continue
            reads, writes, bare = spec
            given, written, read, skip = [], [], [], None
            for word in _split_long_options(command[at + 1 :], (*reads, *writes)):
                if skip:
                    value = self.expand(_unquote(word))
                    # (each with the words that name it, as the line writes them)
                    if skip in writes or (skip == ">" and not value.endswith(".log")):
                        # (stdout is the tool's output, unless sent to a log: its printout)
                        written.append((f"{skip} {word}", value))
                    elif skip in reads and len(read) < SEQ_FILES:
                        parts = value.split(",", SEQ_FILES)[:SEQ_FILES]
                        read.extend(
                            (f"{skip} {word}" if len(parts) == 1 else skip, p) for p in parts
                        )
                    skip = None
                elif word in (">", "2>", "<", "&>", *reads, *writes):
                    skip = word  # (a redirection's file: stdout is the tool's output)
                elif word[:1] == ">" and word[1:2] not in ("", ">", "&", "|"):
                    # (a redirection written against its file, `>out/db.txt`)
                    value = self.expand(_unquote(word[1:]))
                    if not value.endswith(".log") and not value.startswith("/dev/"):
                        written.append((word, value))
                elif word.startswith(("-", "2>", "&>", "<")):
                    continue  # (another option, whose value is no file of the tool's; a log)
                elif (
                    bare
                    and len(given) < (bare if bare > 0 else SEQ_FILES)
                    and self._seq_file(value := self.expand(_unquote(word)))
                    and not value.replace(".", "", 1).isdigit()
                ):
                    # (a mode's name, `-x asm5`, is no file; nor an option's number,
                    # `--confidence 0.1`)
                    given.append((word, value))
            read += given
            for said, value in read:
                value = self._seq_place(value)
                if (
                    (
                        self._seq_file(value)
                        # (an index is named by its prefix, a bare name: `-x At_index`)
                        or (said.split(None, 1)[0] in SEQ_INDEX and RELATIVE.fullmatch(value))
                    )
                    and value not in self.produced
                    and not self._written(value)
                ):
                    self.add("data.inputs", value, said)
            for said, value in written:
                value = self._seq_place(value)
                if value.startswith("/dev/"):
                    continue  # (the printout thrown away, `> /dev/null`: a device, no file)
                # (a folder's name may start with digits, `03_ASSEMBLY`; a number is none)
                if self._seq_file(value) or RELATIVE.fullmatch(value.lstrip("0123456789")):
                    # (said by its option: several options' places are not one loop's turns)
                    self.add("output.artifacts", value, said)
                    self.produced.add(value)
            if written:
                # A file under the folder the same command writes (a run's own weights it
                # continues from, `--load out/weights.99.pkl … -o out/`) is the run's, not data.
                folders = tuple(v.rstrip("/") + "/" for _, v in written if v.rstrip("/"))
                self.found[self.command_start :] = [
                    p for p in self.found[self.command_start :]
                    if not (p.path == "data.inputs" and str(p.value).startswith(folders))
                ]  # fmt: skip

    def _container_keys(self, words):
        """A key handed into a container by name (`apptainer exec --env WANDB_API_KEY=$KEY`,
        `docker run -e HF_TOKEN`, `--env=A=1,B=2`): a credential, named by the variable the
        program inside reads. apptainer's and singularity's `-e` is `--cleanenv`, no value."""
        for command in _commands(words):
            if not command or _base(command[0]) not in CONTAINER_TOOLS:
                continue
            docker = _base(command[0]) in DOCKER_TOOLS
            for option, value in zip(command, [*command[1:], ""], strict=True):
                if option == "--env" or (docker and option == "-e"):
                    given = value
                elif option.startswith("--env="):
                    given = option[6:]
                else:
                    continue
                # (named by whole words, HF_TOKEN not TOKENIZERS_PARALLELISM nor KEYBOARD_LAYOUT;
                # a switch or a number, `-e USE_AUTH_TOKEN=1`, is a setting; the note names the
                # variable, never the value given)
                for part in _unquote(given).split(","):
                    name, _, setting = part.partition("=")
                    if (
                        ENV_NAME.fullmatch(name)
                        and secret_name(name)
                        and not SWITCH_OR_NUMBER.fullmatch(_unquote(setting))
                    ):
                        self.add("work.credentials", name, f"{option[:5]} {name}")

    def _renamed(self, words):
        """`mv A B` of a file the job wrote (an archive made under a temporary name,
        `tar -cf "$OUT.unfinished" …; mv "$OUT.unfinished" "$OUT"`) leaves it at B: the output
        is B. Also when an `rm` of A came before (the clean-up of a failure branch)."""
        places = [self.expand(_unquote(w)) for w in words[1:] if w[:1] != "-"]
        if len(places) != 2:
            return
        source, target = places[0].rstrip("/"), places[1]
        outputs = [p for p in self.found if p.path == "output.artifacts"]
        if source in self.dropped or any(str(p.value).rstrip("/") == source for p in outputs):
            self.found = [
                p for p in self.found
                if not (p.path == "output.artifacts" and str(p.value).rstrip("/") == source)
            ]  # fmt: skip
            self.dropped.discard(source)
            self.add("output.artifacts", target, " ".join(words)[:160])
            return
        raw = [_unquote(w) for w in words[1:] if w[:1] != "-"]
        if (m := MOVED_INTO.fullmatch(raw[1])) and MADE_FOLDER_VARIABLE.match(m.group(2)):
            # A file moved into a folder named for what the job makes (`mv "$F"
            # "${TRAINED_MODELS_DIR}/${NAME}"`): the folder holds the job's results, an output.
            self.add("output.artifacts", self.expand(m.group(1)), " ".join(words)[:160])

    def _trimmomatic(self, words):
        """Trimmomatic (`trimmomatic PE`, `java -jar …/trimmomatic-0.39.jar SE`) names its files
        by position: paired-end reads two files (or `-basein`) and writes four (or `-baseout`),
        single-end one and one; then its steps, `ILLUMINACLIP:adapters.fa:2:30:10` reading the
        adapters' file. `-threads`, `-trimlog`, `-summary` take a value (the log is no result)."""
        for command in _commands(words):
            at = next(
                (
                    i for i, w in enumerate(command[:-1])
                    if TRIMMOMATIC.fullmatch(_base(w)) and command[i + 1] in ("PE", "SE")
                ),
                -1,
            )  # fmt: skip
            if at < 0:
                continue
            paired = command[at + 1] == "PE"
            given, files, steps, option = {}, [], [], None
            for word in command[at + 2 :]:
                if option:
                    given[option], option = word, None
                elif word in TRIMMOMATIC_VALUED:
                    option = word
                elif (
                    word[:1] in ("-", ">", "&", "|")
                    or word.isdigit()
                    or REDIRECTION_START.match(word)
                ):
                    continue  # (a flag, `-phred33`; a redirection of its printout)
                elif TRIMMOMATIC_STEP.fullmatch(word.partition(":")[0]):
                    steps.append(word)
                elif not steps:
                    # (a backslash before a character is that character, as the shell reads it)
                    files.append(self.expand(_unquote(word).replace("\\", "")))
            reads = [given["-basein"]] if "-basein" in given else files[: 2 if paired else 1]
            written = files[len(reads) if "-basein" not in given else 0 :][: 4 if paired else 1]
            if "-baseout" in given:
                written = [given["-baseout"]]
            for step in steps:
                name, _, rest = step.partition(":")
                if name == "ILLUMINACLIP" and rest:
                    reads.append(self.expand(_unquote(rest.partition(":")[0])))
            # (each said by its own word: one command's files, not one option's turns)
            for value in reads[:SEQ_FILES]:
                value = self._seq_place(value)
                if (
                    self._seq_file(value)
                    and value not in self.produced
                    and not self._written(value)
                ):
                    self.add("data.inputs", value, f"{value} (trimmomatic's input)")
            for value in written:
                value = self._seq_place(value)
                if self._seq_file(value):
                    self.add("output.artifacts", value, f"{value} (trimmomatic's output)")
                    self.produced.add(value)

    def _sra(self, words):
        """NCBI's SRA Toolkit (`fasterq-dump`, `fastq-dump`, `prefetch`) fetches runs by their
        accession (`SRR378098`, `ERR…`, `DRR…`; or the script's argument, `acc=$1`): each is
        read, as written. `-O`/`--outdir` is where the copy lands, a download's local side (the
        job's output when nothing after names it); `-t`/`--temp` is its scratch."""
        for command in _commands(words):
            if not command or _base(command[0]) not in SRA_TOOLS:
                continue
            fetched, folder, skip = [], None, None
            for word in command[1:]:
                if skip:
                    if skip in SRA_FOLDER:
                        folder = (f"{skip} {word}", self.expand(_unquote(word)))
                    skip = None
                elif word in SRA_VALUED:
                    skip = word
                elif word.startswith("-") or len(fetched) >= SEQ_FILES:
                    continue
                elif SRA_ACCESSION.fullmatch(word) or (
                    VARIABLE_ALONE.fullmatch(word) and word.strip("${}") in self.arguments
                ):
                    fetched.append(word)
            said = " ".join(command)[:160]
            for accession in fetched:
                self.add("data.inputs", accession, said)
            if fetched and folder and (_is_path(folder[1]) or VARIABLE_ALONE.fullmatch(folder[1])):
                self._downloaded(fetched[0], folder[1], folder[1], said)

    def _index_built(self, words):
        """`hisat2-build ref.fa idx`, `bowtie2-build --threads 8 ref.fa idx`: the index (its
        last bare word, a prefix) is the job's own, and a later `-x idx` reads no data."""
        bare = []
        for word in words:
            if word[:1] == "#" or word in ("&", "|") or REDIRECTION_START.match(word):
                break
            if word[:1] != "-":
                bare.append(word)
        if len(bare) >= 2:
            index = self.expand(_unquote(bare[-1]))
            self.produced |= {index, self._seq_place(index)}

    def _seq_place(self, value):
        """A relative name (a glob too) in the folder the job went to (`cd /data; fastqc r*.gz`)."""
        if (
            self.cwd
            and value
            and not _is_path(value)
            and RELATIVE.fullmatch(value.replace("*", "x"))
        ):
            return f"{self.cwd}/{value}"
        return value

    def _seq_file(self, value):
        """A sequencing tool's file: a path or file name, globs too (`reads/*.fq.gz`), or the
        script's argument (`$1`, `$query` with `query=$2`); not a name made up by a command
        (`"$base"_index` with `base=$(basename …)`) nor a variable set to nothing."""
        names = [a or b for a, b in SUBMIT_VARIABLE.findall(value)]
        made = "/" not in value.rstrip("/")  # (a name alone, not a place under a folder)
        if any(
            n in self.emptied or (made and n in self.computed and n not in self.dated)
            for n in names
        ):
            return False
        alone = VARIABLE_ALONE.fullmatch(value)
        if alone:
            return value.strip("${}").isdigit() or value.strip("${}") in self.arguments
        return _file_word(value.replace("*", "x").replace("?", "x"))

    def _gromacs(self, words):
        """GROMACS: `grompp` reads the coordinates, topology, index and restraints it is given
        (`-c`, `-p`, `-n`, `-r`, `-t`; `-f` is the run's parameters) and writes the run input
        `-o` for mdrun: the job's own when a later step runs it, else what the job makes.
        `mdrun -deffnm X` reads X.tpr and writes the run's files under the prefix X, `-s` names
        the run input (MDRUN_READS, MDRUN_WRITES). `-cpi` given the checkpoint mdrun itself
        saves (`-cpo`, else X.cpt, else state.cpt) continues from it when it is there: the
        run's checkpoint, resumed. A file an earlier step wrote is the job's own."""
        for command in _commands(words):
            tool = next((i for i, w in enumerate(command) if GROMACS.fullmatch(_base(w))), -1)
            if tool < 0:
                continue
            name = _base(command[tool])
            step = command[tool + 1] if name.startswith("gmx") and tool + 1 < len(command) else name
            given = dict(zip(command[tool + 1 :], [*command[tool + 2 :], ""], strict=False))
            if step.startswith("grompp"):
                for option in GROMPP_READS:
                    self._file_read(given.get(option, ""), f"grompp {option}")
                written = self.expand(given.get("-o", ""))
                # (a name without an extension is given one: `-o em` writes em.tpr)
                if written and not written.startswith("-") and _statable(written):
                    self.produced.update({written, f"{written}.tpr"})
                    self.run_inputs[written] = (self.line, self.raw, self.span)
            elif step.startswith("mdrun"):
                prefix = self.expand(given.get("-deffnm", ""))
                if not (prefix and not prefix.startswith("-") and _statable(prefix)):
                    prefix = ""
                run_input = self.expand(given.get("-s", "")) or f"{prefix or 'topol'}.tpr"
                for each in (run_input, run_input.removesuffix(".tpr")):
                    self.run_inputs.pop(each, None)
                for option in MDRUN_READS:
                    self._file_read(given.get(option, ""), f"mdrun {option}")
                if prefix:
                    if "-s" not in given:
                        self._file_read(f"{prefix}.tpr", f"mdrun -deffnm {prefix}")
                    self.add("output.artifacts", prefix, f"mdrun -deffnm {prefix}")
                    self.produced.add(prefix)
                for option in MDRUN_WRITES:
                    if _file_word(written := self.expand(given.get(option, ""))):
                        self.add("output.artifacts", written, f"mdrun {option} {written}")
                        self.produced.add(written)
                if "-cpi" not in given and _file_word(saved := self.expand(given.get("-cpo", ""))):
                    # mdrun saves its checkpoint there every -cpt minutes (15 by default); with no
                    # -cpi it does not continue from it
                    self.add("request.checkpoint_location", saved, f"mdrun -cpo {saved}")
                if "-cpi" in given:
                    saved = self.expand(given.get("-cpo", "")) or f"{prefix or 'state'}.cpt"
                    start = self.expand(given["-cpi"])
                    if not start or start.startswith("-") or start == saved:
                        said = f"mdrun -cpi {saved} (continues from it when it is there)"
                        self.add("request.checkpoint_location", saved, said)
                        self.add("request.preemptible", True, said)
                    else:
                        self._file_read(start, "mdrun -cpi")

    def _run_inputs_unread(self):
        """A run input grompp wrote that no later step ran: what the job makes."""
        kept = self.line, self.raw, self.span
        for written, (line, raw, span) in self.run_inputs.items():
            self.line, self.raw, self.span = line, raw, span  # (the grompp line, shown)
            self.add("output.artifacts", written, f"grompp -o {written}")
        self.line, self.raw, self.span = kept
        self.run_inputs = {}

    def _amber(self, words):
        """AMBER's pmemd and sander: AMBER_READS are read, AMBER_WRITES written (a file an
        earlier step wrote is the job's own: a chain of minimisation, heating, production)."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if AMBER.fullmatch(_base(w))), -1)
            if at < 0:
                continue
            given = dict(zip(command[at + 1 :], [*command[at + 2 :], ""], strict=False))
            for option in AMBER_READS:
                self._file_read(given.get(option, ""), f"{_base(command[at])} {option}")
            for option in AMBER_WRITES:
                if _file_word(written := self.expand(given.get(option, ""))):
                    self.add("output.artifacts", written, f"{_base(command[at])} {option}")
                    self.produced.add(written)

    def _deepmd(self, words):
        """DeePMD-kit's `dp` (DEEPMD_READS, DEEPMD_WRITES): `dp compress -i frozen.pb -o
        small.pb` reads the one and writes the other; `dp freeze -o graph.pb` writes the
        frozen model. A file an earlier step wrote is the job's own."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if _base(w) == "dp"), -1)
            program = _program_at(command)
            if at < 0 or not (
                at == program
                or (0 <= program < at and _base(command[program]) in CONTAINER_RUNNERS)
            ):
                continue  # (`python main.py --strategy dp test`: a word, not the program)
            rest = [w for w in command[at + 1 :] if w not in ("--tf", "--pt", "--jax", "--pd")]
            if not rest or rest[0] not in ("train", "freeze", "compress", "test"):
                continue
            sub = rest[0]
            given = dict(zip(rest[1:], [*rest[2:], ""], strict=False))
            for option in DEEPMD_READS.get(sub, ()):
                self._file_read(given.get(option, ""), f"dp {sub} {option}")
            for option in DEEPMD_WRITES.get(sub, ()):
                if _file_word(written := self.expand(_unquote(given.get(option, "")))):
                    self.add("output.artifacts", written, f"dp {sub} {option} {written}")
                    self.produced.add(written)

    def _namd(self, words):
        """NAMD's configuration file (see NAMD) is read."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if NAMD.fullmatch(_base(w))), -1)
            for word in command[at + 1 :] if at >= 0 else []:
                if word[:1] in "<>" or word[:2] in ("1>", "2>", "&>"):
                    break  # (a redirection: its file is the printout)
                word = _unquote(word)
                if word[:1] not in "+-" and NAMED_FILE.fullmatch(word):
                    self._file_read(word, _base(command[at]))
                    break

    def _intel_profiler(self, words):
        """Intel Advisor and VTune write their results into a project or result folder
        (`advisor --collect=roofline --project-dir=./adv -- ./app`, `vtune -collect hotspots
        -result-dir r001 -- ./app`): an output. A report step (`vtune -report summary -r r001`,
        `advisor --report=roofline --project-dir=./adv`) reads that folder: the job's own when an
        earlier step collected into it, an input otherwise."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if INTEL_PROFILER.fullmatch(_base(w))), -1)
            if at < 0:
                continue
            reports = any(
                w.partition("=")[0] in ("-report", "--report", "-R") for w in command[at + 1 :]
            )
            for i, word in enumerate(command[at + 1 :], at + 1):
                if word == "--":
                    break  # (the program profiled and its own options follow)
                option, equals, value = word.partition("=")
                if option.lstrip("-") not in INTEL_RESULT_OPTIONS:
                    continue
                if not equals:
                    value = command[i + 1] if i + 1 < len(command) else ""
                value = self.expand(_unquote(value))
                if value[:1] not in ("", "-") and (_file_word(value) or RELATIVE.fullmatch(value)):
                    said = f"{command[at]} {option} {value}"
                    if not reports:
                        self.add("output.artifacts", value, said)
                        self.produced.add(value.rstrip("/"))
                    elif not self._inside_own(value):
                        self.add("data.inputs", value, said)
                break

    def _wsclean(self, words):
        """WSClean, the radio interferometric imager: the measurement sets it images are its
        bare arguments at the end (`… sub*.ms`, `… ${obsid}.ms`, a variable alone: `… $MSIN`),
        read; `-name PREFIX` is the prefix of the images it writes, an output."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if _base(w) == "wsclean"), -1)
            if at < 0:
                continue
            given = dict(zip(command[at + 1 :], command[at + 2 :], strict=False))
            name = _unquote(given.get("-name", ""))
            sets = [w for w in command[at + 1 :] if MEASUREMENT_SET.fullmatch(_unquote(w))]
            last, before = command[-1], command[-2] if len(command) - at > 2 else "-"
            if not sets and VARIABLE_ALONE.fullmatch(_unquote(last)) and before[:1] != "-":
                sets = [_unquote(last).replace("{", "").replace("}", "")]  # (`${MSIN}`: $MSIN)
            for word in sets:
                value = self.expand(_unquote(word))
                if "*" in value and value not in self.produced:
                    self.add("data.inputs", value, f"wsclean {word}")  # (`sub*.ms`: the sets)
                else:
                    self._file_read(value, "wsclean")
            if name and not name.startswith("-"):
                self.add("output.artifacts", self.expand(name), f"wsclean -name {name}")

    def _deck(self, words):
        """The input deck a simulation program is given by an option (DECK_PROGRAM) is read,
        as a deck given on stdin is."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if DECK_PROGRAM.fullmatch(_base(w))), -1)
            if at < 0:
                continue
            given = dict(zip(command[at + 1 :], [*command[at + 2 :], ""], strict=False))
            option = next((o for o in DECK_OPTIONS if o in given), None)
            if option:
                self._file_read(given[option], f"{_base(command[at])} {option}")
        for command in _commands(words):
            # The command's own program, or the one a launcher starts (`mpirun -np 4 ./sim`),
            # run from a path (`./quake`, `bin/sim`) or a DECK_PROGRAM; not a tool (`cp`, `sed`).
            if command[0] == "time":  # (`time -p mpirun ./Gadget4 param.txt`: timed)
                command = command[2:] if command[1:2] == ["-p"] else command[1:]
                if not command:
                    continue
            launched = _base(command[0]) in LAUNCHERS | DECK_LAUNCHERS
            at = _launched_at(command) if launched else 0
            program = command[at]
            if (
                launched
                and at
                and at + 1 < len(command)
                and DATA_FILE.search(command[at + 1])
                and command[at + 1][:1] != "-"
            ):
                # Data by its kind handed first to the program an MPI launcher starts
                # (`mpirun parallel_bilby_analysis run/data_dump.pickle --outdir …`): read.
                self._file_read(command[at + 1], _base(program))
                continue
            if at + 1 >= len(command) or not (
                ("/" in program and not DECK_FILE.fullmatch(program))
                or DECK_PROGRAM.fullmatch(_base(program))
            ):
                continue
            if DECK_FILE.fullmatch(command[at + 1]):
                self._file_read(command[at + 1], _base(program))

    def _file_read(self, value, said):
        """A file a program is given to read, unless an earlier step of the job wrote it, or
        it is the copy the job made in its own working folder of an input read from where it
        came (`cp $PWD/job.inp $WORK; cd $WORK; orca job.inp`)."""
        value = self.expand(value)
        if value in self.copied_in and not _is_path(value) and self._node_local(value):
            return
        if (
            not _is_path(value)
            and any("." not in name for name in self.copied_in)
            and self._node_local(value)
        ):
            return  # a file of the folder copied into the job's own (`cp -r $PWD/B5 $W; cd $W`)
        if _file_word(value) and value not in self.produced:
            self.add("data.inputs", value, f"{said} {value}")

    def _tool_output(self, words, starts, at, value):
        """`--output F` (words[at]) naming a data file by its kind, given to a tool that is not
        a launcher (whose `--output` is its log) nor a download (whose copy the fetch rules
        read); `starts`: where the command before it and its own start."""
        if not (
            (DATA_FILE.search(value) and (_is_path(value) or RELATIVE.fullmatch(value)))
            # an image it renders or plots (`render.py scene.yaml --output frame.png`)
            or (PICTURE_FILE.search(value) and (_is_path(value) or RELATIVE.fullmatch(value)))
            # a result file by its kind under a place the job names (`--output
            # "$HOME/results/{dataset}_{model}.json"`, the tool's own fields in braces)
            or (_is_path(value) and OUTPUT_FILE.match(value.rpartition("/")[2]))
        ):
            return False
        # (its own command's first word, found without copying the command: a line can hold
        # thousands of options; the command before it when `--output` starts one)
        if starts[1] < at:
            head = next((words[k] for k in range(starts[1], at) if not _prefix(words[k])), "")
        else:
            command = list(_commands(words[starts[0] : at]))
            head = next((w for w in command[-1] if not _prefix(w)), "") if command else ""
        return bool(
            head
            and _base(head) not in LAUNCHERS | {"sbatch", "salloc"}
            and not FETCHERS.fullmatch(_base(head))
        )

    def _positional_inputs(self, before):
        """The data files (by kind) a command is given as bare arguments, before the option
        naming its output (`encode a.h5 b.h5 --output c.h5`) or to a program named for what it
        makes of them (`extract_features.py x.h5`): what it reads. A word after an option is
        that option's value, not an argument; a file an earlier step wrote is not read."""
        command = list(_commands(before))
        words = command[-1] if command else []
        for previous, word in zip(words, words[1:], strict=False):
            if previous.startswith("-") or word.startswith("-") or "=" in word:
                continue
            value = self.expand(_unquote(word))
            if (
                DATA_FILE.search(value)
                and (_is_path(value) or RELATIVE.fullmatch(value))
                and not NODE_LOCAL.match(value)
                and not self._written(value)
            ):
                self.add("data.inputs", value, word)

    def _data_folder_argument(self, words):
        """A Python program's first bare argument that is a folder named for data (`train.py
        ./data`, `prepare.py /network/datasets/inat`): what it reads, unless a step wrote it
        or it is on the node's own disk (a copy made there)."""
        for command in _commands(words):
            at = next((i for i, w in enumerate(command) if w.endswith(".py")), None)
            if at is None or at + 1 >= len(command):
                continue
            word = command[at + 1]
            if word in TRAIN_SUBCOMMANDS and at + 2 < len(command):
                # A program told to train by its subcommand (`main.py train x.jsonl`, `cli.py
                # fit data.csv`): the data file by its kind after it is what it trains on.
                value = self.expand(_unquote(command[at + 2]))
                if (
                    value[:1] != "-"
                    and DATA_FILE.search(value)
                    and not WEIGHTS_FILE.search(value)
                    and not self._written(value)
                ):
                    # (a URL without its user part or query: where the data is, not its keys)
                    value = _without_query(value)
                    self.add("data.inputs", value, f"{command[at]} {word} {value}")
                continue
            value = self.expand(_unquote(word)).rstrip("/")
            if (
                not DATA_FOLDER.fullmatch(value)
                or NODE_LOCAL.match(value)
                or self._written(value)
                or self._written(value.removeprefix("./"))
            ):
                continue
            if (not _is_path(value) or value.startswith("./")) and self._named_before(value):
                continue  # a folder under the working directory the job may fill itself
            self.add("data.inputs", value, f"{command[at]} {word}")

    def _named_before(self, folder):
        """Whether a line before the current command names a folder under the working
        directory (`wget -P data`, `cp -r /x ./data`, `DATA=data`); comments aside. The lines
        naming each folder are found once."""
        folder = folder.removeprefix("./")
        if folder not in self._folder_lines:
            named = re.compile(rf"(?<![\w./$-])(?:\./)?{re.escape(folder)}(?![\w.-])")
            raw = self.span[0]
            self._folder_lines[folder] = next(
                (
                    i
                    for i, line in enumerate(raw)
                    if folder in line and not line.lstrip().startswith("#") and named.search(line)
                ),
                len(raw),
            )
        return self._folder_lines[folder] < self.span[1]

    def _program_input(self, words):
        """`prog.py -i in.csv -o out.txt`: a program that writes the path it is given with `-o`
        reads the one it is given with `-i` (paths only: `-i` is also an index, an interval)."""
        for command in _commands(words):
            given = dict(zip(command, [*command[1:], ""], strict=False))
            value, out = self.expand(given.get("-i", "")), self.expand(given.get("-o", ""))
            ran = any(w.endswith(".py") or w.rsplit("/", 1)[-1] in PROFILERS for w in command)
            if ran and _is_path(value) and _is_path(out):
                self.add("data.inputs", value, f"-i {value}")
            elif URL.fullmatch(value) and DATA_FILE.search(value) and OUTPUT_FILE.search(out):
                # A data file fetched by URL (`-i https://…/batch.jsonl`) and the file of
                # results named beside it (`-o results.jsonl`): read and written.
                self.add("data.inputs", value, f"-i {value}")
                self.add("output.artifacts", out, f"-o {out}")

    def _dmtcp(self, line):
        """DMTCP checkpoints every `-i`/`--interval` seconds (given to dmtcp_launch or to the
        coordinator)."""
        if m := DMTCP_INTERVAL.search(line):
            self.add("request.checkpoint_interval", f"{m.group(1)}s", m.group(0).strip())

    def _yacs(self, words):
        """Settings as `KEY VALUE` pairs (yacs, detectron2's `--opts MODEL.WEIGHTS …`): the
        weights a model starts from are read, its OUTPUT_DIR written."""
        for key, value in zip(words, words[1:], strict=False):
            if not YACS_KEY.fullmatch(key):
                continue
            last, value = key.rsplit(".", 1)[-1], self.expand(value)
            said = f"{key} {value}"
            if last in ("WEIGHTS", "PRETRAINED") and (_is_path(value) or "://" in value):
                self.add("data.inputs", value, said)
            elif last == "OUTPUT_DIR" and _is_path(value):
                self.add("output.artifacts", value, said)
            elif last.endswith("DATA_DIR") and _is_path(value) and not self._written(value):
                # SlowFast's `DATA.PATH_TO_DATA_DIR /data/kinetics/`: the folder it reads
                self.add("data.inputs", value, said)

    def _weights_file(self, value):
        """A file of weights (`--model_path models/x.pt`, `--model /ckpts/epoch-12.pt`): a Hub id
        carries no extension, so this is the file the program loads, unless a step wrote it."""
        return bool(
            (RELATIVE_PLACE.fullmatch(value) or (_is_path(value) and value[:1] != "$"))
            and WEIGHTS_FILE.search(value)
            and not self._written(value)
        )

    def _hub_or_path(self, value, said, dataset):
        if _is_path(value) or self._weights_file(value):
            self.add("data.inputs", value, said)
        elif HF_ID.fullmatch(value) or HF_BARE.fullmatch(value):
            self.add("data.inputs", f"hf://{'datasets/' if dataset else ''}{value}", said)

    def _call_continued(self, calls):
        """A Python call left open at the end of the line, with its next line: the repository
        it loads is its first argument there."""
        raw, start, _, _ = self.span
        if start + 1 < len(raw):
            return calls.rstrip() + raw[start + 1].strip()
        return calls

    def _hub_page(self, m):
        """A Hub repository's page given to a program (`--dataset_root
        https://huggingface.co/datasets/org/x/tree/main`) is the repository it reads; a bare
        name beside it on the line (`--dataset wds/x`) then names something inside that root,
        not a repository of its own."""
        kind, repo = m.group(2) or "", m.group(3)
        start = self.command_start
        self.found[start:] = [
            p
            for p in self.found[start:]
            if not (p.path == "data.inputs" and p.said.startswith("--"))
        ]
        page = m.group(0)[len(m.group(1)) + 1 :].strip("\"'")
        self.add("data.inputs", f"hf://{kind}{repo}", f"{m.group(1)} {page}")

    def _hub(self, line, words):
        if "download" in line and HF_DOWNLOAD.search(line):
            repo = self.expand(_first_argument(words, ("download",), HF_VALUED) or "")
            source = ""
            sources = []
            if repo and HF_ID.fullmatch(repo):
                kind = "datasets/" if DATASET_REPO.search(line) else ""
                # (the files named after it, when any, are what is fetched: one entry each)
                files = _hub_files(words, HF_VALUED)
                sources = [f"hf://{kind}{repo}/{name}" for name in files] or [f"hf://{kind}{repo}"]
                for source in sources:
                    self.add("data.inputs", source, f"download {repo}")
            for i, word in enumerate(words[:-1]):
                option, eq, value = word.partition("=")
                if option in DOWNLOAD_TO:
                    written = value if eq else words[i + 1]
                    local = self.expand(written)
                    self.staged.add(local)
                    for source in sources if _statable(local) else ():
                        # The local copy, as for any download: staging, or what a job that
                        # only downloads makes (read() decides).
                        self._downloaded(source, local, written, f"download {repo} {word} {local}")
        if "huggingface.co" in line and (m := HF_PAGE_OPTION.search(line)):
            self._hub_page(m)
        if "huggingface.co" in line and (m := HF_CLONE.search(line)):
            kind, repo = m.group(1) or "", m.group(2)
            self.hub_clones.add(self.expand(repo).rsplit("/", 1)[-1])
            self.add("data.inputs", f"hf://{kind}{repo}", f"git clone {m.group(0).split()[-1]}")
        if "upload" in line and HF_UPLOAD.search(line):
            repo = self.expand(_first_argument(words, ("upload",), HF_VALUED) or "")
            if repo and HF_ID.fullmatch(repo):
                kind = "datasets/" if DATASET_REPO.search(line) else ""
                self.add("output.artifacts", f"hf://{kind}{repo}", f"upload {repo}")
        # A call quoted in a `sed s/…/…/` expression has its slashes escaped (`org\/name`).
        calls = line.replace("\\/", "/") if "\\/" in line else line
        if "(" in line and PY_OPEN_CALL.search(calls):
            calls = self._call_continued(calls)
        for m in PY_CALL.finditer(calls) if "(" in line else ():
            call, repo = m.group(1), self.expand(m.group(2) or f"${{{m.group(3)}}}")
            if not HF_ID.fullmatch(repo):
                continue  # a builder ("json") or a local directory
            said = f"{call}({repo!r})"
            if call == "push_to_hub":
                self.add("output.artifacts", f"hf://{repo}", said)
            elif call == "load_dataset" or DATASET_REPO.search(line):
                self.add("data.inputs", f"hf://datasets/{repo}", said)
            else:
                self.add("data.inputs", f"hf://{repo}", said)
        for m in HF_FILE_CALL.finditer(calls) if "hf_hub_download" in line else ():
            repo, name = self.expand(m.group(1)), self.expand(m.group(2))
            if HF_ID.fullmatch(repo) and "$" not in name:
                # (the call's other arguments: `repo_type='dataset'`, `subfolder='unet'`)
                end = calls.find(")", m.end())
                rest = calls[m.end() : end if end >= 0 else m.end() + 400]
                kind = HF_REPO_TYPE.search(rest)
                folder = HF_SUBFOLDER.search(rest)
                if folder and "$" not in folder.group(1):
                    name = f"{folder.group(1).strip('/')}/{name}"
                prefix = f"{kind.group(1)}s/" if kind else ""
                self.add(
                    "data.inputs",
                    f"hf://{prefix}{repo}/{name}",
                    f"hf_hub_download({repo!r}, {name!r})",
                )
        for m in PY_SAVE.finditer(calls) if ".save" in line or ".to_" in line else ():
            # What the job's own Python writes, by a name it gives (`image.save('cat.png')`).
            place = self.expand(m.group(1))
            if _is_path(place) or RELATIVE.fullmatch(place):
                self.add("output.artifacts", place, m.group(0))
        for m in PY_READ.finditer(calls) if "open(" in line else ():
            # A file the job's own Python reads by name, unless an earlier step wrote it.
            place = self.expand(m.group(1))
            if SETTINGS_OR_CODE.search(place):
                continue  # the program's own settings or code, not data
            if (_is_path(place) or RELATIVE.fullmatch(place)) and not self._written(place):
                self.add("data.inputs", place, m.group(0))
        if "serve" in line and (SERVE_MODEL.search(line) or SERVE_OPTIONS_FIRST.search(line)):
            # `vllm serve org/model` (or a local folder), `vllm serve --port 8000 --revision $V
            # org/model` (options first, as a variable of them expands, `vllm serve $SERVE_OPTS
            # … $MODEL`): the model is a word that is neither an option nor an option's value.
            self._served(self.expand(_unquote(self._serve_positional(words))))
        if "kaggle" in line and KAGGLE.search(line):
            for i, word in enumerate(words[:-1]):
                if word in ("-d", "--dataset") and HF_ID.fullmatch(words[i + 1]):
                    slug = words[i + 1]
                    self.add(
                        "data.inputs",
                        f"https://www.kaggle.com/datasets/{slug}",
                        f"kaggle datasets download -d {slug}",
                    )

    def _own_checkpoint(self, value, words):
        """True when a checkpoint a trainer resumes from is its own: named last* (Lightning's
        `last.ckpt`, the newest it saved), or under a place another option of the command
        writes (`--output_dir`, `--default_root_dir`, `--save_dir`, `--log_dir`)."""
        if OWN_LAST_CHECKPOINT.match(value.rstrip("/").rsplit("/", 1)[-1]):
            return True
        places = set()
        for i, word in enumerate(words):
            if not word.startswith("--") or word.split("=", 1)[0] in RESUME_FROM:
                continue
            option, _, given = word.partition("=")
            if not (WRITES.search(option) or WRITES_TO_PLACE.search(option)):
                continue
            if not given and i + 1 < len(words) and not words[i + 1].startswith("-"):
                given = words[i + 1]
            if given := self.expand(_unquote(given)).rstrip("/"):
                places.add(given.removeprefix("./"))
        return _in_places(value.removeprefix("./"), places)

    def _served(self, model):
        """The model a server loads. A variable the file gives no value in its place is a Hub id
        set at launch (`hf://$MODEL`): that word is the model whatever its name."""
        said = f"serve {model}"
        m = SUBMIT_VARIABLE.fullmatch(model)
        name = m and (m.group(1) or m.group(2))
        if name and name not in self.variables.ambiguous and name not in self.computed:
            self._unset_model(model, said)
        elif model and (HF_ID.fullmatch(model) or _is_path(model)):
            self._hub_or_path(model, said=said, dataset=False)

    def _serve_positional(self, words):
        """The model of a server command (`vllm serve --port 8000 org/model`): of the words
        after `serve` that are neither an option, an option's value (the word after one not
        written `--x=v`, unless that is an option too or a known switch, SERVE_SWITCHES), a
        redirection, nor the shell's next command. The server takes one such word, so when
        a variable the file leaves unset holds its options (`vllm serve $SERVE_ARGS $MODEL`)
        the model is a Hub id or path written out, else a variable named for a model, else
        the last such word. A switch not known directly before the model hides it: unsaid."""
        at = next(
            (i for i, w in enumerate(words[1:], 1) if w == "serve" and words[i - 1] in SERVERS),
            None,
        )
        if at is None:
            return ""
        rest = words[at + 1 :]
        found = []
        i = 0
        while i < len(rest):
            word = rest[i]
            if word in SHELL_BREAKS or ">" in word or "<" in word:
                break
            if not word.startswith("-"):
                found.append(word)
                i += 1
                continue
            taken = (
                "=" not in word
                and word not in SERVE_SWITCHES
                and i + 1 < len(rest)
                and not rest[i + 1].startswith("-")
            )
            i += 2 if taken else 1
        written = [w for w in found if "$" not in w and (HF_ID.fullmatch(w) or _is_path(w))]
        named = [
            w
            for w in found
            if (v := SUBMIT_VARIABLE.fullmatch(w)) and SERVED_MODEL.search(v.group(1) or v.group(2))
        ]
        return (written or named or found or [""])[0 if written or named else -1]

    def _fetch(self, line, words):
        if not FETCHERS.search(line):
            return
        tool = FETCH.search(line)
        if not tool or SHELL_PIPE.search(line):
            return  # piped into a shell: an installer
        if SAVED_AS_PACKAGE.search(line):
            return  # saved as a package to install
        keyish = ("gpg", "key", ".asc", ".pem", ".crt")
        if any(word in line for word in keyish) and SAVED_AS_KEY.search(line):
            return  # a repository's signing key or a certificate, for the package manager
        if tool.group(1) == "wget":
            self._wget_files(words)
        lookups = [m.span(1) for m in URL_LOOKUP.finditer(line)]
        for m in URL.finditer(line):
            url = m.group(0)
            if any(start <= m.start() < end for start, end in lookups):
                continue  # a lookup that builds another URL (a release's version): no data
            if not NOT_DATA_URL.search(url) or RAW_DATA_FILE.match(url):
                self.add("data.inputs", url, f"{words[0] if words else 'fetch'} {url}")
                self._fetched_here(line, url, tool.group(1))

    def _wget_files(self, words):
        """wget's own files: the list of URLs it fetches (`-i urls.txt`, `--input-file=`), read,
        and the crawl it keeps as an archive (`--warc-file=crawl`, written as crawl.warc.gz;
        the name as written)."""
        start = words.index("wget") if "wget" in words else len(words)
        for i, word in enumerate(words[start:], start):
            if word in ("&&", "||", ";", "|"):
                break  # the next command's options
            option, eq, value = word.partition("=")
            if not eq and option in ("-i", "--input-file") and i + 1 < len(words):
                value = words[i + 1]
            elif not (eq and option in ("--input-file", "--warc-file")):
                continue
            value = self.expand(_unquote(value))
            if not value or value == "-" or URL.match(value):
                continue  # URLs from the input stream, or a URL (read as a fetch)
            if option == "--warc-file":
                self.add("output.artifacts", value, f"wget --warc-file={value}")
            else:
                self.add("data.inputs", value, f"wget {option} {value}")

    def _literal_key(self, name, value):
        """A key the script sets outright (`export WANDB_API_KEY="cc08…"`): the job is given it,
        by the variable's name (never its value). The name says it is a key in two words or
        more (`HF_TOKEN`, `WANDB_API_KEY`); a bare `key=…` or `token=…` is as often a loop's
        setting. A value with a `/` is a key only where it is no path (AWS's secret keys hold
        `/` and `+`; `data/x` or `~/.token` name a file)."""
        words = [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]
        if NOT_A_KEY_VALUE.fullmatch(value) or NOT_A_KEY_NAME.intersection(words):
            return
        if "/" in value and (value[:1] in "/~." or "." in value):
            return
        if len(words) > 1 and secret_name(name):
            self.add("work.credentials", name, f"{name}=… (set in the script)")

    def _key_files(self, line, words):
        """Files a batch script loads its keys from: a dotenv file it sources (`set -a; source
        ~/proj/.env`) or exports (`export $(cat .env | grep WANDB_API_KEY | xargs)`), and a file
        read into a variable named for a key (`HF_TOKEN=$(cat "$HF_TOKEN_FILE")`). Credentials,
        named by the file (a template of one, `.env.example`, is no key)."""
        files = []
        # (such an assignment is a short line: a long one is not looked at)
        if "=$(" in line and len(line) < 400 and (m := KEY_FROM_FILE.match(line)):
            if SECRET_WORDS.search(m.group(1)):
                files.append(m.group(2))
        else:
            for command in _commands(words):
                if (
                    command[0] in ("source", ".")
                    or command[:2] == ["export", "$("]
                    or (command[0] == "export" and len(command) > 1 and command[1].startswith("$("))
                ):
                    files += [
                        w
                        for w in _words(" ".join(command[1:]).replace("$(", " ").replace(")", " "))
                        if _unquote(w).rsplit("/", 1)[-1] == ".env"
                    ]
        for file in files:
            path = self.expand(_unquote(file))
            if _statable(path):
                self.add("work.credentials", path, line.strip()[:160])

    def _fetch_dir(self, words):
        """The folder the line's last `cd` changes into (`mkdir -p d && cd d || exit 1`)."""
        place = None
        for i, word in enumerate(words[:-1]):
            if word == "cd" and (i == 0 or words[i - 1] in ("&&", ";", "||")):
                place = self.expand(words[i + 1]).rstrip("/")
        return place if _fetch_folder(place) else None

    def _fetched_here(self, line, url, tool):
        """A file fetched under its own name into the folder the script changed into (`cd data`,
        then `wget URL`): that folder holds the copy. A download job (nothing after names the
        folder) makes it, its output, on a cluster's shared disk; read() decides."""
        if not self.fetch_dir or not self.shared_disk:
            return
        keeps_name = CURL_KEEPS_NAME.search(line) if tool == "curl" else True
        if not keeps_name or (tool != "curl" and FETCH_NAMED_ELSEWHERE.search(line)):
            return
        name = url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        self.staged.add(f"{self.fetch_dir}/{name}")
        before = len(self.found)
        self.add("_download", self.fetch_dir, f"{tool} {url} (into {self.fetch_dir})")
        if len(self.found) > before:
            self.downloads.append((self.found[before], self.index, {self.fetch_dir}))

    def _copies(self, line, words):
        m = COPY_TOOL.search(line) if COPY_WORDS.search(line) else None
        if not m:
            if "cp" in line or "rsync" in line or "sbcast" in line:
                self._staging(words)
            return
        rest = [w for w in _words(line[m.end() :]) if not w.startswith("-")]
        # Option values (`--exclude '*.tmp'`) are rare in copies; only the first two other
        # words are the source and the destination.
        if len(rest) < 2:
            return
        source, target = self.expand(rest[0]), self.expand(rest[1])
        if "rclone" in m.group(0) and self.rclone_remotes:
            source, target = (
                _rclone_place(source, self.rclone_remotes),
                _rclone_place(target, self.rclone_remotes),
            )
        said = f"{line[m.start() : m.end()].strip()} {source} {target}"
        # rclone's remotes have any name set in its config (`archive:survey`); on a cloud VM
        # such a remote is more often a store SkyPilot mounts, so only URIs count there.
        rclone = "rclone" in m.group(0) and self.shared_disk
        # (a bucket's path may hold a command's output: `s3://b/$(date +%F)/` is still remote)
        remote = [
            bool(CLOUD_URI.match(w) or (rclone and RCLONE_REMOTE.fullmatch(w)))
            or w.startswith(tuple(self.rclone_remotes.values()) or "\0")
            for w in (source, target)
        ]
        if remote[0]:
            self.add("data.inputs", copied_folder(source), said)
            if not remote[1]:
                self._downloaded(source, target, rest[1], said)
        if remote[1]:
            if not remote[0]:
                self._uploaded(source, said)
            self.add("output.artifacts", target, said)

    def _uploaded(self, source, said):
        """The local side of an upload. One an earlier step of the job wrote (a program's
        results, a download) is staging: the job made it. One no earlier step can have
        written (the job has only set its place up so far: a backup, an archive sent away)
        is data the job reads: an input, a variable kept as the file writes it."""
        local = self._in_cwd(source).rstrip("/")
        if (
            self.ran_before
            or not local
            or NODE_LOCAL.match(local)  # the node's own disk holds only what the job put there
            or not (_is_path(local) or RELATIVE.fullmatch(local))
            or CODE_FILE.search(local)
            or self._written(local)
        ):
            self.staged.add(source)
            return
        self.add("data.inputs", self._in_cwd(source), said)

    def _written(self, path):
        """Whether an earlier step of the job wrote the path (or the folder holding it): the
        path and each folder above it are looked up, so a script naming thousands of files
        stays linear. (A written place stays written when a later rule drops its proposal.)"""
        if not path:
            return False
        places = [path[:i] for i, c in enumerate(path) if c == "/" and i] + [path]
        staged = self.staged
        return any(
            p in self.written or p in self.produced or p in self.made
            or p in staged or p + "/" in staged
            for p in places
        )  # fmt: skip

    def _ran(self, words, skip=frozenset()):
        """Whether the line runs a program that may write files (not a message, a module load,
        a folder made or a copy): what it writes, a later upload sends away. A value taken
        from a command (`IP=$(echo $SSH_CLIENT | cut -d' ' -f1)`) runs that command."""
        for command in _commands(list(_substituted(words))):
            i = 0
            while i < len(command) and (_prefix(command[i]) or command[i] == "time"):
                i += 1
            head = command[i].rsplit("/", 1)[-1] if i < len(command) else ""
            # (`[[ -z "$A" || -z "$B" ]]` splits at `||`: `-z "$B" ]]` is a test's, no program)
            if (
                head
                and head[0] != "-"
                and head not in READS_NOTHING
                and head not in MOVES_ONLY
                and head not in COPIES
                and head not in skip
            ):
                return True
        return False

    def _downloaded(self, source, target, written, said):
        """The local copy of a download is the same data: the remote source is the input, and
        what the job then does with the copy is staging. A job that only downloads (nothing
        after the copy names it) makes that copy: on a cluster's shared file system, where it
        stays after the job, it is the job's output (read() decides once the job is read). A
        relative local side is under the folder the script changed into."""
        local = self._in_cwd(target)  # (as written: `sync/` stays `sync/`)
        name = source.rstrip("/").rsplit("/", 1)[-1]
        for place in (target.rstrip("/"), local.rstrip("/")):
            self.staged.update({place, f"{place}/{name}"})
        if (
            self.shared_disk
            and (_is_path(local) or RELATIVE.fullmatch(local))
            and not NODE_LOCAL.match(local)
        ):
            before = len(self.found)
            self.add("_download", local, said)
            if len(self.found) > before:
                forms = {local.rstrip("/"), target.rstrip("/"), _unquote(written).rstrip("/")}
                forms.discard("")
                self.downloads.append((self.found[before], self.index, forms))

    def _in_tree(self, path):
        """A relative path under the folder the script changed into (any first character:
        `07_runs/` too, as tar's and cp's arguments are always paths)."""
        return f"{self.cwd}/{path}" if self.cwd else path

    def _in_cwd(self, path):
        if self.cwd and not _is_path(path) and RELATIVE.fullmatch(path):
            return f"{self.cwd}/{path}"
        return path

    def _staging(self, words):
        """`cp`/`rsync` to or from the node's own disk or memory (/tmp, /dev/shm, $TMPDIR):
        what is copied in is read, what is copied back out is kept. Through srun too (`srun
        rsync -r ~/data/ $LOCAL/`, `srun -N 2 cp …`: the same copy on each node)."""
        segment = []
        for word in [*words, ";"]:
            if word not in (";", "&&", "||", "|") and not word.endswith(";"):
                segment.append(word)
                continue
            if word.endswith(";") and word != ";":
                segment.append(word[:-1])
            while segment and segment[0] in ("time", "sudo", "command", "srun"):
                segment = _launched(segment) if segment[0] == "srun" else segment[1:]
            tool = segment[0].rsplit("/", 1)[-1] if segment else ""
            if tool == "sbcast":
                self._broadcast(segment)
            elif tool in ("cp", "rsync", "scp"):
                args = [self.expand(w) for w in _copy_arguments(segment)]
                if len(args) >= 2:
                    said = " ".join(segment)[:160]
                    if tool == "cp" and _recursive(segment):
                        if not self._copied_across(args[:-1], args[-1], said):
                            self._stage(args[:-1], args[-1], said)
                    elif tool == "cp":
                        if not self._files_copied_across(args[:-1], args[-1], said):
                            self._stage(args[:-1], args[-1], said)
                    elif tool == "cp" or not self._transfer(args[:-1], args[-1], said):
                        self._stage(args[:-1], args[-1], said)
            segment = []

    def _stage(self, sources, target, said):
        # `cp -r models/* $TMPDIR` copies a folder's contents: the folder is what is read.
        sources = [s[:-2] if s.endswith("/*") and len(s) > 2 else s for s in sources]
        local = [s for s in sources if self._node_local(s)]
        if self._node_local(target) and not local:
            # A working folder of the job's own also gets its program and settings: only
            # data by its kind, a simulation's input deck (DECK_FILE), or a folder, is read
            # there.
            picky = not NODE_LOCAL.match(target)
            for source in sources:
                name = source.rsplit("/", 1)[-1]
                kind = not picky or DATA_FILE.search(source) or "." not in name
                # (a JSON file staged on the node's own disk is data unless named for settings:
                # `cp run/matrices/stats.json $SLURM_TMPDIR/`, not `cp config.json /tmp/`)
                settings = _settings_file(source) and (
                    picky
                    or not source.endswith(".json")
                    or any(w in _base(source).lower() for w in SETTINGS_WORDS)
                )
                if (
                    (_is_path(source) or _data_named(source))
                    and not settings
                    and not _packed_environment(source)
                    and (kind or DECK_FILE.fullmatch(name))
                ):
                    # (`cp /scratch/run/weights/* $SLURM_TMPDIR/w/` reads the folder's contents:
                    # the place is the folder, as for a cloud copy)
                    self.add("data.inputs", copied_folder(source), said)
                    self.copied_in.add(name)
        elif len(local) == len(sources) and not self._node_local(target) and _is_path(target):
            self.add("output.artifacts", target, said)
        elif not local and _is_path(target):
            # The submit folder's data copied to a scratch place the job works from (`cp -r
            # data/ /scratch-shared/u/`): read, as it is when copied to the node's own disk.
            for source in sources:
                if _data_named(source) and not self._written(source.rstrip("/")):
                    self.add("data.inputs", source, said)

    def _node_local(self, path):
        """The node's own disk, or a folder the job makes for itself and works in (named for
        its id, `/scratch/$USER/$SLURM_JOB_ID`): a path in it, or a relative one while there."""
        if NODE_LOCAL.match(path):
            return True
        if (
            self.cd_place
            and NODE_LOCAL.match(self.cd_place)
            and (path.startswith("./") or (not _is_path(path) and RELATIVE.fullmatch(path)))
        ):
            return True  # a relative path after `cd $SLURM_TMPDIR`: on the node's own disk
        if not self.workspaces:
            return False
        if not _is_path(path):
            # (in the job's own folder, or a folder within it: `cd $WORK; cd build`)
            return bool(self.cwd) and any(
                self.cwd == w or self.cwd.startswith(w + "/") for w in self.workspaces
            )
        return any(path.rstrip("/") == w or path.startswith(w + "/") for w in self.workspaces)

    def _broadcast(self, segment):
        """`sbcast [options] SOURCE DEST` copies a file to the node-local DEST of every node of
        the job: a data file so sent (`sbcast -f ifconfig.txt /tmp/ifconfig.txt`) is read.
        Most often it is the program itself (`sbcast a.out /tmp/a.out`): not a file with no
        extension or a program's, code or settings."""
        places, skip = [], False
        for word in segment[1:]:
            if skip:
                skip = False
            elif word in SBCAST_VALUED:
                skip = True
            elif not word.startswith("-"):
                places.append(self.expand(word))
        if len(places) != 2:
            return
        source = places[0]
        name = source.rsplit("/", 1)[-1]
        if (
            "." in name.strip(".")
            and not PROGRAM_FILE.search(name)
            and not COMPILED_FILE.search(name)
            and not CODE_FILE.search(name)
            and (_is_path(source) or RELATIVE.fullmatch(source))
            and not NODE_LOCAL.match(source)
            and not self._written(source)
        ):
            self.add("data.inputs", source, " ".join(segment)[:160])

    def _copied_across(self, sources, target, said):
        """`cp -r` of folders from one shared place to another (`cp -R /home/a/results/ /home/b/`,
        `srun cp -r $DIR/logs $DIR/*.out $DIR/final/`): a transfer, as rsync's is. What is
        copied is read, where it lands is written (read() decides, as for a download). Not the
        node's own disk (staging), code, or what an earlier step of the job wrote: after a
        program has run, the copy is of its results (and on a cloud VM, of the job's own files)."""
        if not self.shared_disk or self.ran_before:
            return False
        if any(NODE_LOCAL.match(w) for w in (*sources, target)) or not all(
            _is_path(w) for w in (*sources, target)
        ):
            return False
        if any(CODE_FILE.search(w.rstrip("/")) or self._written(w.rstrip("/")) for w in sources):
            return False
        for source in sources:
            self.add("data.inputs", source, said)
            if self._node_local(target):
                # (into the job's own folder: what it then reads there is of this copy)
                self.copied_in.add(source.rstrip("/").rsplit("/", 1)[-1])
        self._downloaded(sources[0], target, target, said)
        return True

    def _files_copied_across(self, sources, target, said):
        """Plain `cp` of data files from one shared place to another before any program has run
        (`cp /lustre/scratch/u/run/inputs.mat ./run/inputs.mat`, `cp /n/lab/waveforms/* /n/lab/zs/`):
        a transfer, as `cp -r`'s is (a folder's contents, `/*`, read as the folder). Not a
        program, code, settings, a hidden file (`.env`) or a name with no extension (a program's
        as often as a file's)."""
        folders = [s[:-2] if s.endswith("/*") and len(s) > 2 else s for s in sources]
        for source, folder in zip(sources, folders, strict=True):
            name = folder.rstrip("/").rsplit("/", 1)[-1]
            if source == folder and (
                name.startswith(".")
                or "." not in name
                or PROGRAM_FILE.search(name)
                or COMPILED_FILE.search(name)
                or PROJECT_FILE.search(name)
                or "/.ssh/" in folder
            ):
                return False
        before = len(self.downloads)
        copied = self._copied_across(folders, target, said)
        if copied and len(self.downloads) > before and not target.endswith("/"):
            # A file copied into a folder the job then works in (`cp … /scratch/u/run/in.dat`,
            # then `cd /scratch/u/run`) is staged there, as a copy into the folder itself is:
            # a later line naming the folder uses it.
            place = target.rsplit("/", 1)[0]
            if place and place not in ("~", "$HOME", ".", "..") and place.count("/") > 1:
                self.downloads[-1][2].add(place)
        return copied

    def _transfer(self, sources, target, said):
        """rsync and scp move data between places that outlast the job: to another machine
        (`host:path`, `user@host:path`), from one, or from one shared folder to another (a
        transfer job). What is sent is read, where it lands is written; a copy fetched to the
        cluster is read() as a download. Copies to or from the node's own disk are staging."""
        if len(sources) != 1 or any(NODE_LOCAL.match(w) for w in (*sources, target)):
            return False
        source = sources[0]
        remote = [bool(REMOTE_HOST.fullmatch(w)) for w in (source, target)]
        if remote[1] and target.split(":", 1)[1] == source:
            return True  # the same path on another host: the job's own files put on its nodes
        if remote[1] and not remote[0]:
            self._uploaded(source, said)
            self.add("output.artifacts", target, said)
        elif remote[0] and not remote[1]:
            self.add("data.inputs", source, said)
            self._downloaded(source, target, target, said)
        elif not any(remote) and all(_is_path(w) for w in (source, target)):
            if _settings_file(source) or self._written(source.rstrip("/")):
                return False
            self.add("data.inputs", source, said)
            self._downloaded(source, target, target, said)
        else:
            return False
        return True

    def _registry(self, line, words):
        """An image the job publishes (`docker push org/app:1`) is what it delivers; the key it
        logs in to the registry with (`echo $TOKEN | docker login --password-stdin`, or
        `--password $TOKEN`) is a credential, named as the job is given it."""
        for command in _commands(words):
            if len(command) < 2 or command[0] not in CONTAINER_TOOLS:
                continue
            if command[1] == "push" and (image := _first_argument(command[1:], ("push",), ())):
                image = self.expand(image)
                if "$" not in image:
                    self.add("output.artifacts", image, f"{command[0]} push {image}")
            elif command[1] == "login":
                given = zip(command, command[1:], strict=False)
                value = next((b for a, b in given if a in ("--password", "-p")), "")
                if not value and "--password-stdin" in command:
                    value = REGISTRY_KEY_PIPED.search(line)
                    value = value.group(1) if value else ""
                if m := SECRET_VALUE.fullmatch(value.strip("\"'")):
                    name = next(g for g in m.groups() if g)
                    self.add("work.credentials", name, f"{command[0]} login {value}")

    def _wandb_login(self, words):
        """`wandb login KEY`: the job logs in to Weights & Biases with a key, a credential named
        as the job is given it (`wandb login $WANDB_KEY`) or, written out in the file, as W&B
        keeps it (`WANDB_API_KEY`). (`wandb login` alone reads a key the node already has.)"""
        for command in _commands(words):
            if command[:2] != ["wandb", "login"]:
                continue
            key = next((w for w in command[2:] if w[:1] != "-"), "").strip("\"'")
            if m := SECRET_VALUE.fullmatch(key):
                self.add("work.credentials", next(g for g in m.groups() if g), "wandb login")
            elif WANDB_KEY.fullmatch(key):
                self.add("work.credentials", "WANDB_API_KEY", "wandb login (a key written out)")

    def _containers(self, line, words):
        if self.runtimes and "$" in line:
            # `${container_command} run … IMAGE`, the variable set to docker or podman (whichever
            # works on the node): a container run all the same
            named = re.sub(
                r"\$\{?(\w+)\}?",
                lambda m: self.runtimes.get(m.group(1), m.group(0)),
                line,
            )
            if named != line:
                line, words = named, _words(named)
        if "docker" in line or "podman" in line:
            self._registry(line, words)
        if (".sif" in line or ".simg" in line or ".sqsh" in line) and not APPTAINER.search(line):
            self._image_run(words)
        runtime = RUNTIME_WORDS.search(line)  # (once: the patterns below need its words)
        if m := PULL.search(line) if runtime else None:
            # `apptainer pull [x.sif] docker://x:1` makes x.sif (x_1.sif unnamed): a job that
            # then runs that file runs the image pulled.
            after = [self.expand(w) for w in _words(line[m.end() :]) if not w.startswith("-")]
            source = next((w for w in after if "://" in w), "")
            named = next((w for w in after if w.endswith(".sif")), "")
            if source:
                default = source.split("://", 1)[1].rsplit("/", 1)[-1].replace(":", "_") + ".sif"
                self.pulled[(named or default).rsplit("/", 1)[-1]] = source
            return
        for pattern, keep_prefix in ((APPTAINER, False), (DOCKER_RUN, False), (ENROOT, False)):
            m = pattern.search(line) if runtime else None
            if not m:
                continue
            after = _words(line[m.end() :])
            valued = APPTAINER_VALUED if pattern is APPTAINER else CONTAINER_VALUED
            image = _first_argument(["run", *after], ("run",), valued)
            if image:
                said = f"{line[m.start() : m.end()].strip()} {image}"
                gpus = any(w in GPU_FLAGS for w in after[: after.index(image)])
                if pattern is DOCKER_RUN and DETACHED.intersection(after[: after.index(image)]):
                    self.detached.add(self.expand(image))
                self._image(image, said, keep_prefix, gpus=gpus)
            return
        if "shifter" in line and SHIFTER.search(line):
            for i, word in enumerate(words):
                if word.startswith("--image="):
                    image = word.partition("=")[2]
                elif word == "--image" and i + 1 < len(words):
                    image = words[i + 1]
                else:
                    continue
                self._image(image, f"shifter --image={image}", keep_prefix=True)
                break

    def _image_run(self, words):
        """An Apptainer image run as the command itself (`./tools.sif args`, `srun x.sif`): the
        image's runscript is the job's program, so the file is its container image."""
        for command in _commands(words):
            i = 0
            while i < len(command) and (
                _prefix(command[i]) or command[i] in ("time", "exec", "srun", "mpirun", "mpiexec")
            ):
                i += 1
                while i < len(command) and command[i - 1] != "time" and command[i][:1] == "-":
                    i += 1  # the launcher's own options (`srun -n 4 x.sif`: only flags skipped)
            if i < len(command) and IMAGE_FILE.search(command[i]):
                self._image(command[i], command[i], keep_prefix=True)
                return

    def _image(self, image, said, keep_prefix, gpus=False):
        if gpus and not self.gpu_image:
            # Of several containers, the one given the GPUs runs the job's own program; those
            # started before it (a database, a broker) serve it.
            self.gpu_image = True
            self.found = [p for p in self.found if p.path != "work.image"]
        image = self.expand(image)
        image = self.pulled.get(image.rsplit("/", 1)[-1], image)
        # An image file under an environment's folder (`$HOME/img/x.sif`) is kept as written,
        # as is one the script is given as its argument (`CONTAINER=$1` … `exec $CONTAINER`, as
        # a model so given is); a bare variable with no value here (`$IMAGE`) names nothing.
        argument = SUBMIT_VARIABLE.fullmatch(image)
        argument = argument and (argument.group(1) or argument.group(2)) in self.arguments
        if ("$" in image and not IMAGE_FILE.search(image) and not argument) or not _statable(image):
            return
        if not keep_prefix:
            image = re.sub(r"^docker://", "", image)
        self.add("work.image", image, said)

    def _binds(self, value, said, words):
        # Where the container starts (`cd /workspace && …`, `--pwd`): a mount there holds
        # the job's code, not data.
        # (`-w` is Docker's working folder; Apptainer's `-w` is --writable, and after its image
        # the program's own: fMRIPrep's `-w /work` is its scratch folder)
        short_workdir = () if self._has(APPTAINER) else ("-w",)
        workdirs = {
            self.expand(b).rstrip("/")
            for a, b in zip(words, words[1:], strict=False)
            if a in ("cd", "--pwd", "--workdir", "--container-workdir", "--chdir", "-D")
            or a in short_workdir
        } | {
            self.expand(w.partition("=")[2]).rstrip("/")
            for w in words
            if w.startswith(("--pwd=", "--workdir=", "--container-workdir=", "--chdir="))
        }
        # The program the container runs (`python /p/train.py`): the mount holding it is code.
        programs = [self.expand(w) for w in words if w[:1] in "/$" and SCRIPT_FILE.search(w)]
        # Singularity and Apptainer start the container in the host's working folder: a
        # program named relative to it (`sh repo/scripts/train.sh`) is in the host folder
        # of that name (`--bind repo:/repo`).
        relative_programs = (
            [w for w in words if RELATIVE.fullmatch(w) and "/" in w and SCRIPT_FILE.search(w)]
            if self._has(APPTAINER)
            else []
        )
        joined = " ".join(words)
        # (a folder named through a variable, `cd $REPO/examples` in a `bash -c` script, is the
        # one the variable holds)
        workdirs |= {
            self.expand(w.split()[1]).rstrip("/")
            for w in re.findall(r"\bcd\s+[^\s;&|'\"]+", joined)
        }
        # Ray's runtime environment ships its working_dir as the job's code.
        workdirs |= {w.rstrip("/") for w in RAY_WORKING_DIR.findall(joined)}
        # Folders the launcher writes the step's console log in (`srun --output=D/x.log`).
        logs = {
            self.expand(w.partition("=")[2] or b).rsplit("/", 1)[0].rstrip("/")
            for w, b in zip(words, [*words[1:], ""], strict=False)
            if w.partition("=")[0] in ("--output", "--error", "-o", "-e")
        }
        logs |= {place.rsplit("/", 1)[0] for place in list(logs) if place.endswith("/logs")}
        for spec in _bind_specs(value):
            source, colon, rest = self.expand(spec).partition(":")
            target = rest.split(":")[0]
            if target.startswith("//"):
                # `$D:/$TARGET` with TARGET=/mnt/x: `//mnt/x`, the same path as /mnt/x
                target = "/" + target.lstrip("/")
            if not colon or not source or not target or not _is_path(target):
                continue
            # The host side as a variable (`$DATADIR`): its name tells what the mount is for.
            # (or, the value already expanded in a variable holding the options, `CONTVOLS="-v
            # $DATADIR:/data"`, the script's variable holding that value)
            named = SUBMIT_VARIABLE.fullmatch(spec.partition(":")[0].strip('"'))
            names = (
                [named.group(1) or named.group(2)] if named else self.variables.aliases_of(source)
            )
            # A command naming a path inside the mount is stated by what it does with it.
            named_inside = re.search(
                rf"(?<![\w.:/-])(?<!dst=)(?<!target=){re.escape(target.rstrip('/'))}(?![\w.-])",
                self.current,
            )
            if source.rstrip("/") in ("$PWD", "${PWD}") or (
                source.rstrip("/") in ("$(pwd)", "`pwd`") and not self.cd_place
            ):
                # The directory the job was submitted from: the job's own files, its code
                # (`$(pwd)` before any `cd` is the shell's `$PWD`).
                self.add("work.code", "$PWD" if "pwd" in source else source.rstrip("/"), said)
                if target.rstrip("/") not in ("", "/"):
                    # paths the program is given under it are the submit directory's too
                    self._mount(target, "$PWD")
                continue
            if source.rstrip("/") in (".", "", "$(pwd)", "`pwd`"):
                # The working directory: after `cd /abs/dir`, that folder; the job's code when
                # the container starts in it or runs its program from it.
                here = self.cd_place
                if here and (target.rstrip("/") in workdirs or _holds(target, programs)):
                    self.add("work.code", here, said)
                continue
            if (
                source
                == "/dev/null"  # an empty file hiding the image's own (`/dev/null:~/.bashrc`)
                or USER_CONFIG.match(target.rstrip("/"))
                or HOME_TOOL_FOLDER.match(source.strip())
                # a folder of packages put at the container's user installs (`-B
                # ~/local/torch-2.1:$HOME/.local`): software for the image, no data
                or HOME_TOOL_FOLDER.match(target.strip())
            ):
                continue  # the user's shell settings, user installs and compiler caches: no data
            holds_program = (
                _holds(target, programs)
                or (
                    not _is_path(source)
                    and any(
                        p.startswith(source.removeprefix("./").rstrip("/") + "/")
                        for p in relative_programs
                    )
                )
                # a folder inside the mount the container starts in, running a program of its
                # own from there (`cd /root/repo/examples; ./build.sh`): the mount holds the code
                or (
                    any(w.startswith(target.rstrip("/") + "/") for w in workdirs)
                    and bool(RELATIVE_PROGRAM.search(joined))
                )
            )
            if (
                source == target
                and not holds_program
                and (target.rstrip("/") in logs or SYSTEM_PLACE.match(target))
            ) or (SYSTEM_PLACE.match(source) and SYSTEM_PLACE.match(target)):
                # Mounted for the step's own log (`--output=$D/logs/%j.log`), or the node's own
                # files seen at the same place (a scheduler's prolog, drivers, sockets), or
                # software the node keeps in its system folders put into the image's
                # (`/opt/hpcx-v2.9:/opt/hpcx`, sourced as the MPI it runs with).
                continue
            if (m := SUBMIT_VARIABLE.fullmatch(source.rstrip("/"))) and (
                (m.group(1) or m.group(2)) in self.submit_names
            ):
                # The submit directory kept in a variable (`wd=$(pwd)`), as `$PWD` above.
                self.add("work.code", "$PWD", said)
                continue
            if target.rstrip("/") in workdirs or holds_program:
                self.add("work.code", source, said)
                if _is_path(source) and target.rstrip("/"):
                    # Paths the program is given under its code folder are the host's too.
                    self.mounted.append((target.rstrip("/"), source.rstrip("/")))
            elif (
                target.rstrip("/").rsplit("/", 1)[-1] in READ_ONLY_MOUNTS
                or any(MOUNTED_DATA_VARIABLE.match(n) for n in names)
            ) and not named_inside:
                # Content the container's program only reads (its packages, model weights);
                # one the command names a path in is stated by what it does with that path.
                self.add("data.inputs", source, said)
                self._mount(target, source)
            elif (
                target.rstrip("/").rsplit("/", 1)[-1] in WRITTEN_MOUNTS
                or any(RESULT_VARIABLE.match(n) for n in names)
            ) and not named_inside:
                # A folder for the results (`-v $LOGDIR:/results`): what the program writes.
                self.add("output.artifacts", source, said)
                self._mount(target, source)
            elif NODE_LOCAL.match(source) or (JOB_ID.search(source) and NODE_LOCAL.match(target)):
                # The job's own scratch: the node's disk, or a folder named for the job put at
                # the container's temporary place (`$JOB_TMP/x:/tmp/x`); no data outlives it.
                self._mount(target, source)
            else:
                self.add("data.unclassified", f"{target} -> {source}", said)
                self._mount(target, source)

    def _mount(self, target, source):
        """Paths the program is given under a mount point are the host's (see _host_path)."""
        if (_is_path(source) or source == "$PWD") and target.rstrip("/"):
            self.mounted.append((target.rstrip("/"), source.rstrip("/")))
            if self.array_name and ARRAY_ELEMENT.match(self.current):
                self.array_mounts.setdefault(self.array_name, []).append(self.mounted[-1])

    def _array_lines(self, line):
        """Which array of options the line is part of (`declare -a ARGS=(`, its lines up to the
        `)` that closes it), for the mounts it holds (_mount)."""
        if self.array_name and self.array_closed:
            self.array_name = None
        if m := OPTIONS_ARRAY_OPENS.match(line):
            self.array_name = m.group(1)
        if self.array_name:
            # (a `)` of its own closes it: not one of a `$(pwd)` in a value)
            self.array_closed = ")" in OUTPUT_IN_VALUE.sub("", line) if ")" in line else False

    def _arrays_mounted(self, words):
        """The mounts of the arrays the line hands to srun or a container runner
        (`srun "${ARGS[@]}" python t.py`), by name; none for any other program's arguments."""
        if not any(w.rsplit("/", 1)[-1] in ARRAY_LAUNCHERS for w in words):
            return []
        return [
            mount
            for name in ARRAY_EXPANDED.findall(" ".join(w for w in words if "[@]" in w))
            for mount in self.array_mounts.get(name, ())
        ]

    def _inside_outputs(self, start):
        """A path a program is given inside a place the same command writes to
        (`--output_dir=/results --json-summary=/results/summary.json`) is part of that output."""
        outs = [p.value.rstrip("/") for p in self.found[start:] if p.path == "output.artifacts"]
        self.found[start:] = [
            p
            for p in self.found[start:]
            if not (
                p.path == "data.inputs"
                and isinstance(p.value, str)
                and any(p.value.startswith(o + "/") for o in outs)
                # (not a file handed over under an option named for its kind, FORMAT_INPUT:
                # AlphaFold 3's `--json_path=/in/x.json` with /in and /out one folder)
                and not FORMAT_INPUT.fullmatch(p.said.split(" ", 1)[0])
            )
        ]

    def _through_mount(self, option, value):
        """An option of the job's own program naming a path mounted into its container: the
        program reads it, unless the option's name says it writes there (`--sink`,
        `--out-dir`, `--save-path`) or keeps its own files there (logs, caches, checkpoints)."""
        hosts = [s for t, s in self.mounted if value == t or value.startswith(t + "/")]
        if not hosts:
            return
        if NODE_LOCAL.match(hosts[0]):
            # The node's own scratch put into the container (`${SLURM_TMPDIR}:/scratch`, then
            # `--db-dir /scratch/db`): what the program keeps there is the job's own, not data.
            return
        name = option.lstrip("-").lower()
        if OWN_FILES.search(name):
            return
        path = "output.artifacts" if WRITES.search(name) else "data.inputs"
        self.add(path, value, f"{option} {value}")


# A line of an array of options (`    --container-mounts $M` inside `declare -a ARGS=(`, or the
# declaration itself): no command runs on it. (one class per part: linear)
# (the lookbehinds start it only at a line's or a word's first character: linear in a search too)
ARRAY_ELEMENT = re.compile(
    r"(?<![ \t\w-])[ \t]*+(?:-|(?:declare[ \t]++-a[ \t]++)?(?<!\w)[A-Za-z_]\w*+\+?=\()"
)


# The line that opens an array, by name (`declare -a ARGS=(`, `ARGS+=(`).
OPTIONS_ARRAY_OPENS = re.compile(
    r"\A[ \t]*+(?:(?:declare|local)[ \t]++-a[ \t]++)?([A-Za-z_]\w*+)\+?=\("
)
# A command's output in a value (`$(pwd)`), one level: its `)` closes no array.
OUTPUT_IN_VALUE = re.compile(r"\$\([^()\n]*+\)")
# An array handed over whole (`"${ARGS[@]}"`), by name.
ARRAY_EXPANDED = re.compile(r"\$\{(\w++)\[@\]\}")
# Who takes an array's container mounts: srun (Pyxis' `--container-mounts`) or a runner.
ARRAY_LAUNCHERS = {"srun"} | {"singularity", "apptainer", "docker", "podman", "shifter", "enroot"}


def _file_word(value):
    """A word that names a file or folder: a path, or a relative name with a folder or an
    extension (`reads/s1.bam`, `${S}.sorted.bam`)."""
    return (
        bool(value)
        and not value.startswith("-")
        and (
            _is_path(value)
            or (
                bool(re.fullmatch(r"[\w${}.~-]+(?:/[\w${}.-]+)*/?", value))
                and ("/" in value or "." in value.strip("."))
            )
        )
    )


def _holds(target, programs):
    """Whether a mount point holds one of the programs a container runs."""
    return any(p.startswith(target.rstrip("/") + "/") for p in programs)


def _base(word):
    return word.rsplit("/", 1)[-1]


def _option_values(command):
    """`--opt a b --next c` -> {"--opt": ["a", "b"], "--next": ["c"]}: a program whose long
    options take one or more values (STAR's), up to a redirection."""
    given, option = {}, None
    for word in command:
        if word[:1] in (">", "<") or word[:2] in ("2>", "1>"):
            break
        if word.startswith("--"):
            option = word
            given.setdefault(option, [])
        elif option:
            given[option].append(word)
    return given


# sbcast's options that take a value as the next word.
SBCAST_VALUED = {"-F", "--fanout", "-j", "--jobid", "-s", "--size", "-t", "--timeout"}
# Compiled programs, libraries and their sources by the file's extension (what sbcast most
# often sends, beside PROGRAM_FILE's).
COMPILED_FILE = re.compile(r"\.(?:out|bin|so|a|o|c|cc|cpp|h|hpp|f90)$")
# tar's options that take a value as the next word.
TAR_VALUED = {"-C", "--directory", "-I", "--use-compress-program", "-T", "--files-from", "-X"}
# htar's options that take a value as the next word (the list of members, threads, options).
HTAR_VALUED = {"-L", "-T", "-H", "-Y", "-S"}
# Archives by their name (`out.tar.gz`, `logs.tgz`, `bams.tar.zst`).
# A relative file or folder as tar names it (`07_run_1/`, `output`); possessive: linear.
TAR_MEMBER = re.compile(r"[\w.][\w.-]*+(?:/[\w.-]++)*+/?")
ARCHIVE_FILE = re.compile(r"\.(?:tar|tgz|tbz2?|txz)(?:\.(?:gz|bz2|xz|zst|lz4))?$|\.tar\.\w+$")
# srun's short options that take their value as the next word (`-p gpu`, `-n 4`).
SRUN_VALUED = {"-N", "-p", "-n", "-c", "-J", "-t", "-o", "-e", "-w", "-x", "-G", "-A", "-q",
               "-C", "-D", "-m", "-d", "-i", "-L", "-M", "-S", "-W"}  # fmt: skip


def _data_named(value):
    """A relative folder or file named for the data (`data/`, `./datasets`, `data/train.csv`)."""
    return not _is_path(value) and bool(
        DATA_FOLDER.fullmatch(value.rstrip("/")) or DATA_FOLDER_FILE.fullmatch(value)
    )


def _recursive(segment):
    """Whether a cp command copies folders (`-r`, `-R`, `-a`, `--recursive`, `-rf`)."""
    return any(
        w in ("--recursive", "--archive")
        or (w.startswith("-") and not w.startswith("--") and any(c in w for c in "rRa"))
        for w in segment[1:]
    )


def _launched(words):
    """The command srun starts (`srun -u unzip X.zip` -> `unzip X.zip`); other words as given."""
    if words[:1] != ["srun"]:
        return words
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in SRUN_VALUED else 1
    return words[i:]


# GNU parallel's options that take the next word as their value.
PARALLEL_VALUED = {"-j", "--jobs", "-P", "--max-procs", "--joblog", "-S", "--sshlogin",
                   "--sshloginfile", "--slf", "--wd", "--workdir", "--delay", "--results",
                   "--res", "--halt", "--timeout", "--tmpdir", "--memfree", "--load", "-N",
                   "--max-args", "-n", "-L", "--max-lines", "--colsep", "-C", "-d",
                   "--delimiter", "--retries", "--tagstring", "--env", "--basefile", "--bf",
                   "--return", "--transferfile", "--tf", "-a", "--arg-file", "-E", "--eof",
                   "-I", "--replace", "-s", "--max-chars"}  # fmt: skip


def _feeds_tasks(command, after=""):
    """Whether what a command (its text up to a `<`) is given on its stdin is a list of tasks:
    GNU parallel's or xargs's input (each line a command or a task's arguments; not parallel's
    `--pipe`, which cuts the data itself into blocks for the command), or the file sed picks a
    task's line from to run it (`sed -n "${SLURM_ARRAY_TASK_ID}p" < list.txt | bash`; `after`
    is the text after the file). A line sed picks into a file of its own is data it read."""
    words = _launched(_words(command))
    head = words[0].rsplit("/", 1)[-1] if words else ""
    if head == "parallel":
        return not any(w in PARALLEL_PIPES for w in words)
    return head == "xargs" or (
        head == "sed" and _picks_a_line(words) and TO_SHELL.match(after) is not None
    )


# GNU parallel's options that hand the command blocks of its input, not lines of arguments.
PARALLEL_PIPES = {"--pipe", "--pipepart", "--spreadstdin"}
# The rest of a line, after a redirect's file, piping it to a shell (`| bash`, `| sh -s`).
TO_SHELL = re.compile(r"\A[ \t]*+\|[ \t]*+(?:/(?:usr/)?bin/)?(?:ba)?sh\b")


def _picks_a_line(words):
    """`sed -n "${ID}p"`, `sed -n $((N+1))p`: sed printing the line a variable numbers."""
    return "-n" in words and any(w[:1] == "$" and w.endswith("p") for w in words)


def runs_listed_commands(body):
    """Whether the job runs the lines of a list as its commands: GNU parallel given no command
    of its own (`parallel -j 8 < cmds.txt`, `cat list | parallel -P 48 {}`, `parallel ::::
    tasks.sh`), or a line sed picks piped to a shell (`sed -n "${ID}p" jobs.txt | bash`). The
    work is written in the list, not in the file. (str.find and splitting only: linear.)"""
    text = (body or "").replace("\\\n", " ")
    if "parallel" not in text and "sed" not in text:
        return False
    for line in text.splitlines():
        if "parallel" not in line and "sed" not in line:
            continue
        parts = line.split("|")
        for i, part in enumerate(parts):
            following = parts[i + 1].split(None, 1)[:1] if i + 1 < len(parts) else []
            to_shell = following in (["bash"], ["sh"])
            if "parallel" not in part and not ("sed" in part and to_shell):
                continue
            words = _launched(_words(part))
            head = words[0].rsplit("/", 1)[-1] if words else ""
            if head == "parallel" and _parallel_runs_lines(words):
                return True
            if head == "sed" and to_shell and _picks_a_line(words):
                return True
    return False


def _parallel_runs_lines(words):
    """GNU parallel with no command before its input (`<`, `::::`, the end) or `{}` as the
    command: each line it is given is run as a command."""
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        i += 2 if words[i] in PARALLEL_VALUED else 1
    command = words[i] if i < len(words) else ""
    return command in ("", "::::", "<") or command.startswith(("<", "{}"))


def _maxtext_saves(words, text=""):
    """Whether the command runs MaxText's trainer (`MaxText/train.py`, `-m MaxText.train`),
    whose settings (`configs/base.yml`: `enable_checkpointing: True`) checkpoint under
    `base_output_directory` and resume from there, and does not turn that off
    (`enable_checkpointing=false`). Arguments kept in an array (`MAXTEXT_ARGS=( … )`, no
    program of their own) are the trainer's when the script runs it."""
    if any(MAXTEXT_NO_CHECKPOINTS.fullmatch(_unquote(w)) for w in words):
        return False
    if any(
        MAXTEXT_TRAIN.search(w) or (w == "-m" and MAXTEXT_MODULE.fullmatch(n))
        for w, n in zip(words, [*words[1:], ""], strict=True)
        if "rain" in w or w == "-m"
    ):
        return True
    return (
        bool(words)
        and ("=" in words[0] or words[0].endswith((".yml", ".yaml")))
        and "rain" in text
        and MAXTEXT_RUN.search(text) is not None
        and MAXTEXT_NO_CHECKPOINTS.search(text) is None
    )


MAXTEXT_TRAIN = re.compile(r"(?:^|/)(?:MaxText|maxtext)/train\.py$")
MAXTEXT_MODULE = re.compile(r"(?:MaxText|maxtext)\.train")
MAXTEXT_RUN = re.compile(r"(?:MaxText|maxtext)(?:/train\.py|\.train)\b")
MAXTEXT_NO_CHECKPOINTS = re.compile(r"enable_checkpointing=(?:false|0)\b", re.IGNORECASE)


def _ffmpeg_words(parts):
    """FFmpeg's words up to its redirections (`> ff.log`, `2>&1`), a `&` or a comment, without
    the flags after its output (`out.mp4 -y`): the last word is then its output."""
    kept, skip = [], False
    for word in parts:
        if skip:
            skip = False
            continue
        if word[:1] == "#" or word == "&":
            break
        if REDIRECTION_START.match(word):
            skip = REDIRECTION_START.fullmatch(word) is not None  # (`> ff.log`: its file next)
            continue
        kept.append(word)
    while len(kept) > 2 and kept[-1] in FFMPEG_FLAGS:
        kept.pop()
    return kept


# A redirection, the start of a word (`>`, `>>`, `2>`, `&>`, `<`, `2>&1`, `>ff.log`): no
# argument of the program; the whole word (`>`, `2>>`), its file is the next word.
REDIRECTION_START = re.compile(r"(?:\d|&)?(?:>>?|<)")


def _without_query(place):
    """A URL without its user part and query (`srt://u:p@cam:9000?passphrase=x` ->
    `srt://cam:9000`): where the data is, not the keys given to reach it."""
    if "://" not in place:
        return place
    scheme, _, rest = place.partition("://")
    rest = rest.split("?", 1)[0].split("#", 1)[0]
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host.rsplit('@', 1)[-1]}{slash}{path}"


def _fetches(line):
    """Whether the line's program is named for fetching or making data (FETCHES): its Python
    program (`download_data.py`, `-m pkg.fetch`), else its script (`bash download.sh`) or the
    command's own name (`fetch-data`)."""
    m = PROGRAM_NAME.search(line)
    if m:
        name = m.group(1) or m.group(2)
    elif m := SHELL_SCRIPT_NAME.search(line):
        name = m.group(1)
    else:
        first = line.split(None, 1)
        name = first[0].rsplit("/", 1)[-1] if first else ""
    return FETCHES.search(name) is not None


SHELL_SCRIPT_NAME = re.compile(r"(?:^|[\s/])([\w-]++)\.sh\b")


def _raw_data(value):
    """A place in a data folder's `raw` folder (`data/raw/ngsim`, `/p/datasets/raw/x.csv`,
    `$ROOT/data/raw`): the data as it came, what a program handed it reads. (Splitting only.)"""
    if not (_is_path(value) or RELATIVE.fullmatch(value)) or len(value) > 300:
        return False
    parts = value.rstrip("/").split("/")
    return any(
        parts[i] == "raw" and parts[i - 1].lower() in ("data", "dataset", "datasets")
        for i in range(1, len(parts))
    )


def _without_tests(line):
    """The line without its `[[ … ]]` tests: inside them `<` and `>` compare two strings
    (`[[ "$END" < "$DATE" ]]`), they redirect nothing. (str.find, not an expression: linear.)"""
    kept, at = [], 0
    while (start := line.find("[[", at)) >= 0 and (end := line.find("]]", start + 2)) >= 0:
        kept.append(line[at:start])
        at = end + 2
    kept.append(line[at:])
    return " ".join(kept)


def _copy_arguments(segment):
    """The places a cp/rsync/scp command names: its words that are not options nor the value of
    rsync's shell option (`-e ssh`, `--rsh ssh`)."""
    places, skip = [], False
    for word in segment[1:]:
        if skip:
            skip = False
        elif word in ("-e", "--rsh"):
            skip = True
        elif not word.startswith("-"):
            places.append(word)
    return places


def _last_part(word):
    """A grouped option by its last part (`--train.output_dir=x` -> `--output_dir=x`)."""
    if word[:2] != "--":
        return word
    option, eq, value = word.partition("=")
    if "." not in option:
        return word
    return "--" + option.rsplit(".", 1)[1] + eq + value


def _commands(words):
    """The commands of a line's words, split at `;`, `&&`, `||` and `|`."""
    command = []
    for word in words:
        if word in (";", "&&", "||", "|") or (word.endswith(";") and word != ";"):
            if word.endswith(";") and word != ";":
                command.append(word[:-1])
            if command:
                yield command
            command = []
        else:
            command.append(word)
    if command:
        yield command


def _values_after(words, start):
    """The further values, from words[start], of an option that takes several (up to the next
    option, at most 64: a line can hold thousands of words, and each option's own)."""
    out = []
    for word in words[start : start + 64]:
        if word.startswith("-") or word in (";", "&&", "||", "|", "&", "\\"):
            break
        out.append(word)
    return out


# A whole command line handed to a launcher as one argument (`ray_launch.py "python -u
# train.py --data /d"`): a Python program run with its options.
HANDED_COMMAND = re.compile(r"^\s*(?:\S*/)?python[\d.]*\s+(?:-\w+\s+)*(?:-m\s+\w|\S+\.py\b)")


SHELL_C_FLAG = re.compile(r"-[eilx]{0,4}c")


def _inline_scripts(words):
    """`bash -c "cmd --opt value"`, or a command line given to a launcher as one argument: the
    quoted script's own words, in place."""
    out = []
    for i, word in enumerate(words):
        if (
            i
            and any(c.isspace() for c in word)
            # (`-c`, or with other switches before it: `bash -lc`, `sh -ec`)
            and (SHELL_C_FLAG.fullmatch(words[i - 1]) or HANDED_COMMAND.match(word))
        ):
            out += _words(word)
        else:
            out.append(word)
    return out


RUNTIME_ASSIGNED = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=["']?([\w-]+)["']?[ \t]*(?:#.*)?$""", re.MULTILINE
)


def _runtime_variables(text):
    """Variables every assignment of which names a container runtime (`cmd=docker`, and
    `cmd=podman` in another branch): name -> the first runtime named."""
    values = {}
    for name, value in RUNTIME_ASSIGNED.findall(text):
        values.setdefault(name, []).append(value)
    return {
        name: given[0]
        for name, given in values.items()
        if all(v in ("docker", "podman", "podman-hpc", "nvidia-docker") for v in given)
        and len(re.findall(rf"^[ \t]*(?:export[ \t]+)?{name}=", text, re.MULTILINE)) == len(given)
    }


def _bind_specs(value):
    """The `source:target[:options]` binds a bind option's value names: a comma list, or one
    mount written as fields (Apptainer's and Docker's `--mount type=bind,src=/x,dst=/y,ro`)."""
    if not re.search(r"(?:^|,)(?:src|source)=", value):
        return value.split(",")
    fields = dict(part.partition("=")[::2] for part in value.split(","))
    source = fields.get("src") or fields.get("source")
    target = fields.get("dst") or fields.get("destination") or fields.get("target")
    return [f"{source}:{target}"] if source and target else []


# A shell expansion to other words only when a variable is set (`${KEY:+--env KEY=$KEY}`).
ALTERNATE_VALUE = re.compile(r"\$\{\w+:?\+")


def _hub_files(words, valued):
    """The files a Hub download names after its repository (`hf download org/x a.bin b.json`),
    up to the end of its command; none when a word there is not a file's name."""
    files, seen, skip = [], 0, False
    for word in words[words.index("download") + 1 :] if "download" in words else ():
        if word in (";", "&&", "||", "|", "&") or word[:1] in (">", "<"):
            break
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = "=" not in word and word in valued
        elif (seen := seen + 1) > 1:
            parts = word.split("/")
            extension = parts[-1].rpartition(".")[2]
            if not (
                all(HF_FILE_PART.fullmatch(part) for part in parts)
                and "." in parts[-1]
                and extension.isascii()
                and extension.isalnum()
            ):
                return []
            files.append(word)
    return files


def _first_argument(words, after, valued=frozenset()):
    """The first word after the command word that is not an option (or an option's value)."""
    started = False
    skip = False
    alternate = False
    for word in words:
        if not started:
            started = word in after
            continue
        if skip:
            skip = False
            continue
        if alternate or ALTERNATE_VALUE.match(word):
            # options given only when a variable is set (`${KEY:+--env KEY="$KEY"}`)
            alternate = not word.endswith("}")
            continue
        if word.startswith("-"):
            skip = word in valued
            continue
        return word
    return None


# A place named after the job's id is new for every job: nothing is resumed from it, and a
# folder so named that the script makes and enters is its own working copy.
JOB_ID = re.compile(r"\$\{?SLURM_(?:JOB_?ID|ARRAY_JOB_ID)\}?|\$\{?SKYPILOT_TASK_ID\}?")


def _job_workspaces(lines, expand):
    """Folders named for the job (`/scratch/$USER/$SLURM_JOB_ID`) that the script both makes
    and changes into: its own working copy, like the node's disk (staging in and out)."""
    made, entered = set(), set()
    for _, line in lines:
        words = line.split()
        if len(words) >= 2 and words[0] in ("mkdir", "cd", "pushd"):
            folders = made if words[0] == "mkdir" else entered
            folders.update(expand(w).rstrip("/") for w in words[1:] if not w.startswith("-"))
    return {f for f in made & entered if JOB_ID.search(f) and f.startswith("/")}


def logical_lines(text):
    """(1-based line, text) for each command line, continuations joined, comments dropped."""
    if text and "\\" not in text and '-c "' not in text:
        # Nothing to join: each line is a command or a comment (a generated script's many
        # lines, at under half the cost of the loop below).
        return [
            (n, line) for n, line in enumerate(text.splitlines(), 1) if line.lstrip()[:1] != "#"
        ]
    out, pending, start = [], [], 0
    for number, line in enumerate((text or "").splitlines(), 1):
        if line.lstrip().startswith("#"):
            # A comment line, also one inside a continued command: a reader reads past it
            # (bash would end the command there; the file's author did not mean that).
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        pending.append(line)
        command = " ".join(pending) if len(pending) > 1 else line
        if len(pending) < SCRIPT_LINES and '-c "' in command and _open_script(command):
            # `bash -c "` with its script on the next lines, up to the closing quote: one
            # command, its lines the script's steps (the shell reads the quoted newlines so).
            pending.append(";")
            continue
        out.append((start, command))
        pending = []
    if pending:
        out.append((start, " ".join(pending)))
    return out


# (a quote left open by mistake joins no more than this many lines)
SCRIPT_LINES = 200
# A shell given its script in double quotes (`bash -c "`, `sh -c "`), the text after it.
SHELL_SCRIPT = re.compile(r"\b(?:ba|z)?sh\s+-c\s+\"")


def _open_script(command):
    """True when a `bash -c "…` script is still open at the end of the command: an odd number
    of unescaped double quotes from its opening one on."""
    m = SHELL_SCRIPT.search(command) if '-c "' in command else None
    return bool(m) and command[m.end() - 1 :].replace('\\"', "").count('"') % 2 == 1


def _rclone_remotes(text):
    """The rclone remotes a script defines itself, by name: the URL prefix their paths are
    under (an S3-compatible store at its endpoint, path-style; AWS S3 or Google Cloud Storage
    without one). A remote defined elsewhere (the user's rclone.conf) stays unknown."""
    remotes = {}
    for m in RCLONE_CREATE.finditer(text):
        endpoint = RCLONE_ENDPOINT.search(m.group(3))
        if endpoint:
            remotes[m.group(1)] = endpoint.group(1).rstrip("/") + "/"
        elif m.group(2).lower() in RCLONE_SCHEMES:
            remotes[m.group(1)] = RCLONE_SCHEMES[m.group(2).lower()]
    return remotes


def _dvc_remotes(text, variables):
    """The DVC remotes a script adds, name -> its store (a cloud URI); the default one (`-d`)
    also under ""."""
    remotes = {}
    for m in DVC_REMOTE_ADD.finditer(text):
        # A command printed for the reader (`echo "And: dvc remote add gcs gs://…"`) adds none.
        line_start = text.rfind("\n", max(0, m.start() - 300), m.start()) + 1
        if PRINTED_BEFORE.search(text[max(line_start, m.start() - 300) : m.start()]):
            continue
        url = variables.expand(m.group(3), record=False)
        if not CLOUD_URI.fullmatch(url):
            continue
        remotes[m.group(2)] = url.rstrip("/")
        if re.search(r"\s(?:-d|--default)\b", m.group(1)):
            remotes[""] = url.rstrip("/")
    return remotes


def _rclone_place(word, remotes):
    """`osn:bucket/path` of a remote the script defined, as the URL of that place (a folder's
    trailing `/` dropped). A path that is only a variable the file gives no value
    (`osn:${P}/`, a loop's) names no place: left as written, so not read as one."""
    name, colon, path = word.partition(":")
    path = path.strip("/")
    if not colon or name not in remotes or not path or path.startswith("$"):
        return word
    return remotes[name] + path


# `case "$MODEL_FAMILY" in` and one of its arms (`sam3_vanilla|sam3_hybrid)`, `*)`).
# (matched at the start of a line, its indent taken off: never searched)
CASE_START = re.compile(r"""case\s+["']?\$\{?(\w+)\}?["']?\s+in$""")
CASE_ARM = re.compile(r"\(?([^()\s][^()]*)\)")


# A name the script sets itself at run time: `NAME=…` (`export`/`local` too), a loop's
# (`for NAME in`, `select NAME in`) or one read (`read -r NAME`, `getopts "ab" NAME`).
# (each searched over one logical line; every branch starts on a fixed character or word)
SETS_NAME = re.compile(r"(?:^|[\s;&|(])(\w{1,100})\+?=|\b(?:for|select)\s+(\w{1,100})\s")
READS_NAMES = re.compile(r"\b(?:read|getopts)\b([^;&|]{0,300})")


def _set_in_script(lines):
    """The names the script itself assigns, loops over or reads into."""
    names = set()
    for _, line in lines:
        if "=" in line or "for" in line or "select" in line:
            for m in SETS_NAME.finditer(line):
                name = m.group(1) or m.group(2)
                # (`FAMILY="${FAMILY:-vit}"` only gives a default: the file's value stands)
                rest = line[m.end() : m.end() + len(name) + 5].lstrip("\"'")
                if not (m.group(1) and rest.startswith((f"${{{name}:-", f"${{{name}:="))):
                    names.add(name)
        if "read" in line or "getopts" in line:
            for m in READS_NAMES.finditer(line):
                names.update(re.findall(r"\w+", m.group(1)))
    return names


def _single_cases(lines):
    """The indexes (into lines) of the `case` starts that neither sit inside another `case` nor
    hold one: the only ones whose arms are chosen by the variable's value (a nested case's
    arms belong to another variable, and its `esac` would close the wrong one)."""
    stack, single = [], set()
    for index, (_, line) in enumerate(lines):
        text = line.strip()
        if text.startswith("case") and text.endswith(" in"):
            if stack:
                stack[0][1] = False
            stack.append([index, not stack])
        elif text.startswith("esac") and stack:
            start, alone = stack.pop()
            if alone:
                single.add(start)
    return single


def _redirect_lines(text, first_line):
    """Each file written with `>` -> the first line that writes it (counted as the reader's
    lines are, from first_line)."""
    found, line, at = {}, first_line, 0
    for m in REDIRECTED.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        found.setdefault(m.group(1), line)
    return found


def _taken_case_arms(lines, variables):
    """The lines without the arms of a `case` the script does not take: when the file gives the
    variable a value (a SkyPilot env's default), only the arm whose pattern is that value (or
    `*`, when none is) runs; the downloads of the others are not the job's. Arms of a variable
    with no value, or with glob patterns, are all kept; so are those of a case nested in
    another or holding one, and of a variable the script sets at run time (`FAMILY=$(python
    pick.py)`, `for MODE in train eval`), whose value the file does not fix."""
    single = _single_cases(lines)
    if not single:
        return lines
    set_here = _set_in_script(lines)
    kept, value, arm, expect_arm, matched = [], None, True, False, False
    for index, (number, line) in enumerate(lines):
        if value is None:
            kept.append((number, line))
            m = CASE_START.match(line.strip()) if index in single else None
            name = m.group(1) if m and m.group(1) not in set_here else None
            given = variables.values.get(name) if name else None
            if given is not None and "$" not in str(given):
                value, arm, expect_arm, matched = str(given).strip(), True, True, False
            continue
        text = line.strip()
        if text.startswith("esac"):
            value = None
            kept.append((number, line))
            continue
        if expect_arm and text and not text.startswith("#") and (m := CASE_ARM.match(text)):
            expect_arm = False
            patterns = [p.strip().strip("\"'") for p in m.group(1).split("|")]
            if any(any(c in p for c in "*?[") and p != "*" for p in patterns):
                arm = True
            else:
                # `*)` is taken only when no arm before it was
                arm = value in patterns or ("*" in patterns and not matched)
                matched = matched or value in patterns
        if arm:
            kept.append((number, line))
        if text.endswith(";;"):
            arm, expect_arm = True, True
    return kept


def read(
    text,
    variables=None,
    section="",
    first_line=1,
    binds=True,
    checkpointed=False,
    shared_disk=False,
    pulled=None,
    sets_up=None,
    made=None,
):
    """Proposals from a job's commands, in text order, each location once.

    shared_disk: the job runs on a cluster's shared file system (Slurm), where what it writes
    stays after it ends. pulled: image files pulled so far, shared by the sections of a task
    (SkyPilot's setup pulls, its run runs). sets_up, a list, gets whether the text only
    sets a place up and reads nothing (a SkyPilot setup), for a caller that decides over several
    texts. (A whole script of only module loads is left unsaid: its work is elsewhere.)
    variables: values the file gives outside the text (SkyPilot envs, a dict or Variables);
    the script's own assignments are read over them by envs.script_variables."""
    variables = script_variables(text, given=variables)
    reader = _Reader(variables, section, binds, shared_disk)
    if text and "rclone" in text and "config" in text:
        reader.rclone_remotes = _rclone_remotes(text)
    if text and "dvc" in text and "remote" in text:
        reader.dvc_remotes = _dvc_remotes(text, variables)
    if binds and text and "pwd" in text.lower():
        reader.submit_names = set(SUBMIT_DIRECTORY.findall(text))
    if text and "=$" in text.replace('"', "").replace("'", ""):
        reader.arguments = {m.group(1) for m in ARGUMENT_VARIABLE.finditer(text)}
        reader.parameters = _function_parameters(text) if "()" in text else set()
    lines = logical_lines(text)
    # (where the unread lines start, when some are)
    first_skipped = lines[HEAD_LINES][0] + first_line - 1 if len(lines) > HEAD_LINES else 0
    lines, skipped = head_and_tail(lines)
    if text and "case" in text and "esac" in text:
        lines = _taken_case_arms(lines, variables)
    arrays = _arrays(lines) if text and "=(" in text else {}
    if arrays and "[" in text:
        lines = _same_elements(lines, arrays)
    if text and "for " in text:
        reader.named_loops = _named_loops(text, variables, arrays)
    if text and ("for " in text or "()" in text or "function " in text):
        plan = _reading_plan(lines, variables, arrays)
    else:
        plan = [(index, {}, None) for index in range(len(lines))]
    if text and '=""' in text:
        reader.emptied = set(EMPTIED.findall(text))
    if text and ("=$(" in text or '="$(' in text or "=`" in text):
        reader.computed = set(COMPUTED.findall(text))
        reader.dated = set(DATED.findall(text)) if "date" in text else set()
    if text and ">" in text:
        reader.redirected = _redirect_lines(text, first_line)
    reader.text = text or ""
    if text and ("$(" in text or "`" in text):
        reader.generated = set(GENERATED.findall(text))
    if text and ("docker" in text or "podman" in text):
        reader.runtimes = _runtime_variables(text)
    if pulled is not None:
        reader.pulled = pulled
    raw = (text or "").splitlines()
    if text and "SLURM_JOB" in text:
        reader.workspaces = _job_workspaces(lines, reader.expand)
    read_lines = [None] * len(lines)
    cut_at = []  # the lines of commands read only in part (longest_command)
    for index, bound, part in plan:
        number, line = lines[index]
        line = part or line
        reader.index = index
        reader.line = number + first_line - 1
        reader.raw = raw[number - 1] if number - 1 < len(raw) else line
        # The physical lines this command spans (a long command continued with `\`).
        end = lines[index + 1][0] - 1 if index + 1 < len(lines) else len(raw)
        reader.span = (raw, number - 1, min(end, number - 1 + 400), first_line)
        reader.last_line = min(max(end, number), number + 400) + first_line - 1
        # Expand the line's variables once so `--data $DATA` reads as the value (in a loop's
        # body, with its variable bound to this turn's value).
        kept = {name: variables.values.get(name) for name in bound}
        variables.values.update(bound)
        expanded = line if "$" not in line else _expand_words(line, variables)
        if len(expanded) > LONGEST_COMMAND:
            expanded = longest_command(expanded)
            cut_at.append(reader.line)
        reader.read_line(expanded)
        for name, value in kept.items():
            if value is None:
                variables.values.pop(name, None)
            else:
                variables.values[name] = value
        # (every turn's reading, for a later line that names what one of them made)
        read_lines[index] = (
            expanded if read_lines[index] is None else f"{read_lines[index]}\n{expanded}"
        )
    reader._run_inputs_unread()
    _checkpoints_in_outputs(reader, text)
    products = _download_products(reader, lines, read_lines) if reader.downloads else []
    staged = [p.rstrip("/") for p in reader.staged if p and p.rstrip("/")]

    def local_copy(p):
        value = str(p.value).rstrip("/")
        if value.startswith("hf://") and value[5:] in staged:
            value = value[5:]  # a relative folder the job downloaded into, read as a Hub id
        # (a checkpoint option naming a downloaded model's folder names what the job reads)
        paths = ("data.inputs", "output.artifacts", "request.checkpoint_location")
        return p.path in paths and any(value == s or value.startswith(s + "/") for s in staged)

    used = reader.mounts_used

    def read_through(p):
        # A mount the program reads or writes through is stated by what it does with it.
        return p.path == "data.unclassified" and p.value.split(" -> ")[0].rstrip("/") in used

    def produced(p):
        return p.path == "data.inputs" and str(p.value).rstrip("/") in reader.produced

    found = [
        Proposal("output.artifacts", p.value, p.line, p.text, p.said, p.section)
        if any(p is made for made in products)
        else p
        for p in reader.found
        if not local_copy(p) and not read_through(p) and not produced(p)
    ]
    found = _sibling_outputs(found)
    found = _intermediates(found, reader.consumed)
    reads = ("data.inputs", "data.unclassified", "request.checkpoint_location", "_load")
    if skipped > 0:
        # What the unread lines do is not known: nothing is said of them but that.
        said = (
            f"The commands run to {len(lines) + skipped:,} lines: the first {HEAD_LINES:,} and "
            f"the last {TAIL_LINES:,} were read, not the {skipped:,} between them"
        )
        found.append(Proposal("note", said, first_skipped, "", said, section))
    for number in cut_at[:1]:
        said = (
            f"The command on line {number:,} runs past {LONGEST_COMMAND:,} characters: its "
            "first words were read, not the rest"
        )
        found.append(Proposal("note", said, number, "", said, section))
    if skipped > 0 or cut_at:
        if sets_up is not None:
            sets_up.append(False)
    elif reader.quiet.reads_nothing() and not any(p.path in reads for p in found):
        found.append(Proposal("data.no_inputs", True, first_line, "", "", section))
    elif sets_up is None and reader.quiet.only_builds() and not any(p.path in reads for p in found):
        # A Slurm job that only builds or installs software (SkyPilot's setup is the caller's)
        found.append(Proposal("data.no_inputs", True, first_line, "", "", section))
    elif sets_up is not None:
        sets_up.append(reader.quiet.only_sets_up() and not any(p.path in reads for p in found))
    images = {p.value for p in found if p.path == "work.image"}
    if len(reader.detached) > 1 and images <= reader.detached:
        # Several images started in the background (`docker run -d A`, `docker run -d B`),
        # none in the foreground: services the job starts side by side, none of them its image.
        found = [p for p in found if p.path != "work.image"]
    if made is not None:
        made.update(reader.made)
    return _settle(found, checkpointed)


def _intermediates(found, consumed):
    """A data file one step writes and a later step reads (`parse.py --output_path p.jsonl`,
    then `design.py --jsonl_path p.jsonl --out_folder designs/`) passes between the job's
    steps: not what the job delivers, when it names another output."""
    if not consumed:
        return found
    passed = [
        p for p in found
        if p.path == "output.artifacts" and isinstance(p.value, str)
        and p.value.rstrip("/") in consumed and DATA_FILE.search(p.value)
    ]  # fmt: skip
    if not passed or not any(p.path == "output.artifacts" and p not in passed for p in found):
        return found
    return [p for p in found if p not in passed]


SIBLINGS = 3  # places side by side that one line names turn by turn: their folder instead


def _sibling_outputs(found):
    """Outputs one line names once per turn of a loop or per call of a function, SIBLINGS or
    more side by side in one folder (`results/sweep/$CFG`), are that folder: where the run's
    output lands, one entry, at the first's place."""
    groups = {}
    for p in found:
        if p.path == "output.artifacts" and isinstance(p.value, str):
            parent, slash, _ = p.value.rstrip("/").rpartition("/")
            if slash and parent and not parent.endswith(":/"):
                # (by the words that named it too: one option read turn by turn, not a line
                # naming several places under one folder with several options)
                option = p.said.split(None, 1)[0] if p.said else ""
                groups.setdefault((p.line, option, parent), []).append(p)
    folded = {
        id(group[0]): (parent, len(group))
        for (_, _, parent), group in groups.items()
        if len({p.value for p in group}) >= SIBLINGS
    }
    if not folded:
        return found
    dropped = {id(p) for group in groups.values() if id(group[0]) in folded
               for p in group[1:]}  # fmt: skip
    out = []
    for p in found:
        if id(p) in folded:
            parent, count = folded[id(p)]
            said = f"{p.said} (one of {count} places in {parent})"
            out.append(Proposal(p.path, parent, p.line, p.text, said, p.section))
        elif id(p) not in dropped:
            out.append(p)
    return out


# `for NAME in WORDS; do` (or `do` on the next line).
FOR_LOOP = re.compile(r"^\s*for\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*(?:;|\n)", re.MULTILINE)
# A loop's header as one logical line: its name, its words, and what follows `do` on it (a
# header may end in `;` with `do` on the next line).
LOOP_HEADER = re.compile(r"^\s*for\s+([A-Za-z_]\w*)\s+in\s+([^;]*?)\s*(?:;\s*do\b(.*)|;)?$")
# `do` and `done` where a command starts (a line's start or after `;`, `&&`, `|`).
DO_OR_DONE = re.compile(r"(?:^|[;&|])\s*(do|done)(?=[\s;&|<>)]|$)")
DONE_WORD = re.compile(r"(?:^|[;&|])\s*done(?=[\s;&|<>)]|$)")
# A bash array set on one line, by name (`MODELS=(a b)`, `declare -a MODELS=(…)`).
NAMED_ARRAY = re.compile(
    r"^\s*(?:(?:declare|local|readonly)(?:\s+-\w+)+\s+)?([A-Za-z_]\w*)(\+?)=\(([^()#]*)\)\s*(?:#.*)?$"
)
# …and one written over several lines: `DATASETS=(` alone on its line, then its elements.
ARRAY_OPENS = re.compile(
    r"^\s*(?:(?:declare|local|readonly)(?:\s+-\w+)+\s+)?([A-Za-z_]\w*)=\(\s*(?:#.*)?$"
)
ARRAY_COMMENT = re.compile(r"(?:^|\s)#.*")
ARRAY_LINES = 256  # elements read of one array written over several lines
# A loop's words that name every element of an array: `"${MODELS[@]}"`, `${MODELS[*]}`.
ARRAY_WORDS = re.compile(r'^"?\$\{([A-Za-z_]\w*)\[[@*]\]\}"?$')
# `$(seq 3)`, `$(seq 1 3)`, `$(seq 0 2 8)`: numbers the loop counts through.
SEQ_WORDS = re.compile(r"^(?:\$\(|`)\s*seq((?:\s+-?\d+){1,3})\s*\)?`?$")
# `{a,b}` and `{1..4}` inside a word (one level, no nesting).
BRACES = re.compile(r"\{([^{},]*(?:,[^{},]*)+|-?\d+\.\.-?\d+)\}")
GLOB = re.compile(r"[*?\[]")
# Most turns read for one loop (nested loops: their product): a loop of a few models, data
# sets or seeds is read turn by turn; one over many shards (`{1..100}`) makes as many
# near-identical places, and is read once with its variable, as written.
LOOP_TURNS = 16
# Most characters read again for all of a script's loops, so a 1 MB script stays linear.
LOOP_BUDGET = 200_000


def _named_loops(text, variables, arrays=None):
    """Loop variables whose words are all bare names (`for DATASET in ${DATASETS}`, DATASETS=
    "ego movie"): each turn names a setting, not a place."""
    named = set()
    for name, words in FOR_LOOP.findall(text):
        if (m := ARRAY_WORDS.match(words)) and m.group(1) in (arrays or {}):
            values = arrays[m.group(1)]  # `for D in "${SETS[@]}"`, SETS=(ego movie)
        else:
            values = variables.expand(words, record=False).replace('"', " ").replace("'", " ")
            values = values.split()
        if values and all(re.fullmatch(r"[\w.-]+", v) for v in values):
            named.add(name)
    return named


def _arrays(lines):
    """Arrays set once (`MODELS=("a" "b")`, or one element a line up to the line that closes
    it, comments between), by name; one set twice or added to (`+=`) holds what the run
    decides, and is left out."""
    arrays, twice = {}, set()
    opened = None  # (name, words) of an array whose elements follow, one line each
    for _, line in lines:
        if opened is not None:
            body = ARRAY_COMMENT.sub("", line).strip()
            if body.startswith(")"):
                name, words = opened
                opened = None
                if name in arrays:
                    twice.add(name)
                arrays[name] = [_unquote(w) for w in words]
            elif "(" in body or ")" in body or len(opened[1]) > ARRAY_LINES:
                opened = None  # (not a plain list of words: left out)
            else:
                opened[1].extend(WORD.findall(body))
            continue
        if "=(" in line and (m := ARRAY_OPENS.match(line)):
            opened = (m.group(1), [])
            continue
        if "=(" not in line or not (m := NAMED_ARRAY.match(line)):
            continue
        name, words = m.group(1), WORD.findall(m.group(3))
        if name in arrays or m.group(2) or any(w[:1] == "[" for w in words):
            twice.add(name)  # (`declare -A M=([a]=x)`: a table by key, left out too)
        arrays[name] = [_unquote(w) for w in words]
    return {k: v for k, v in arrays.items() if k not in twice}


# One element of an array by its index, a number or a variable (`${MODELS[${SLURM_ARRAY_TASK_ID}]}`,
# `${M[$i]}`, `${M[2]}`); not all of them (`${M[@]}`). (Each character of the index is read
# one way, `$` alone only when no `{` follows, and the repeat is possessive: linear.)
ELEMENT = re.compile(r"\$\{([A-Za-z_]\w*)\[(?:[^\[\]{}\n@*$]|\$\{\w+\}|\$(?!\{))*+\]\}")


def _same_elements(lines, arrays):
    """An element of an array whose elements are all the same (`model_name=('org/a' 'org/a')`,
    indexed by the array task) is that value, whichever the index: every run reads it."""
    same = {name: values[0] for name, values in arrays.items() if values and len(set(values)) == 1}
    if not same:
        return lines
    return [
        (i, ELEMENT.sub(lambda m: same.get(m.group(1), m.group(0)), line) if "[" in line else line)
        for i, line in lines
    ]


def _loop_values(spec, variables, arrays, limit=LOOP_TURNS):
    """The values a `for` loop's words give, as the shell gives them: literal words, brace
    lists, `$(seq …)`, a variable set earlier (split on spaces unless quoted) and an array's
    elements. None when a turn's value is not in the file (a glob, a command's output, a
    variable set at launch) or when there are more than `limit`."""
    values = []
    for word in WORD.findall(spec):
        if m := ARRAY_WORDS.match(word):
            if m.group(1) not in arrays:
                return None
            values += arrays[m.group(1)]
        elif m := SEQ_WORDS.match(word):
            numbers = [int(n) for n in m.group(1).split()]
            first, step, last = (
                (1, 1, numbers[0]) if len(numbers) == 1 else
                (numbers[0], 1, numbers[1]) if len(numbers) == 2 else numbers
            )  # fmt: skip
            if step == 0 or (last - first) // step + 1 > (limit or 10**6):
                return None
            values += [str(n) for n in range(first, last + (1 if step > 0 else -1), step)]
        elif "$(" in word or "`" in word:
            return None
        elif word[:1] == '"' and word[-1:] == '"' and word.count('"') == 2:
            values.append(variables.expand(word[1:-1], record=False))  # one word, spaces kept
        else:
            expanded = variables.expand(word, record=False)
            for each in expanded.split():
                each = _unquote(each) if each[:1] in "\"'" else each
                if GLOB.search(each):
                    return None
                values += _braced(each, limit)
        if limit and len(values) > limit:
            return None
    return values if values and not any("$" in v for v in values) else None


def _braced(word, limit):
    """`run_{a,b}` is run_a, run_b; `{1..3}` is 1, 2, 3 (a long range is as many as it says,
    so the caller's limit applies)."""
    m = BRACES.search(word)
    if not m:
        return [word]
    inside = m.group(1)
    if ".." in inside and "," not in inside:
        first, last = (int(n) for n in inside.split(".."))
        if abs(last - first) + 1 > (limit or 10**6):
            return [word] * (abs(last - first) + 1)  # too many: the caller gives up
        step = 1 if last >= first else -1
        parts = [str(n) for n in range(first, last + step, step)]
    else:
        parts = inside.split(",")
    head, tail = word[: m.start()], word[m.end() :]
    return [v for part in parts for v in _braced(head + part + tail, limit)]


def _loop_ends(lines):
    """{the line of a `do`: the line of the `done` that closes it}, `do`s and `done`s paired
    where commands start, in one pass (a line opening two loops maps to the outer's end)."""
    ends, open_at = {}, []
    for i, (_, line) in enumerate(lines):
        if "do" not in line:
            continue
        for m in DO_OR_DONE.finditer(line):
            if m.group(1) == "do":
                open_at.append(i)
            elif open_at:
                ends[open_at.pop()] = i
    return ends


def _loop_opens(lines, i, header):
    """The line of a loop's `do`: its header's (`for M in a b; do`) or the next (`do`)."""
    if header.group(3) is not None:
        return i
    if i + 1 < len(lines) and re.match(r"\s*do(?:\s|$)", lines[i + 1][1]):
        return i + 1
    return None


def _before_done(body):
    """A one-line loop's body without its closing `done`: `cmd $M; done` is `cmd $M`."""
    closing = list(DONE_WORD.finditer(body))
    return body[: closing[-1].start()].strip() if closing else body


def _reading_plan(lines, variables, arrays):
    """(line index, the variables bound while it is read, the text read when not the line as
    written) in reading order, as an HPC engineer reads the script:
    - a loop's body once per value (`for M in llama mistral; do … $M …; done`); loops whose
      values the file does not give, and ones over more than LOOP_TURNS turns, once as written;
    - a shell function's body where it is called, with that call's arguments (`run /d/a` reads
      `--data "$1"` as `--data /d/a`), not where it is defined (defining runs nothing); a
      function never called is read where it is, as written.
    Re-reading shares one budget (LOOP_BUDGET), so a long script stays linear."""
    plan, budget, ends, sizes = [], [LOOP_BUDGET], {}, []  # (sizes: characters before a line)
    sizes.extend(itertools.accumulate((len(line) for _, line in lines), initial=0))
    functions = _called_functions(lines)
    read_as_written = set()  # functions whose body was read without arguments (budget spent)

    def walk(start, end, bound, turns, args=None, active=()):
        i = start
        while i < end:
            if i in functions.starts:  # a function's definition runs nothing
                i = functions.starts[i] + 1
                continue
            if (call := functions.call(lines[i][1])) and call[0] not in active:
                plan.append((i, bound, None))
                expand(call, bound, turns, args, active, i)
                i += 1
                continue
            loop = _expandable(i, turns) if "for" in lines[i][1] else None
            if not loop or loop[2] >= end:
                plan.append((i, bound, _with_arguments(lines[i][1], _arguments_at(args, i))))
                i += 1
                continue
            name, values, close, body = loop
            if close == i:  # `for M in a b; do cmd $M; done` on one line: its body, each turn
                part = _with_arguments(_before_done(body), _arguments_at(args, i)) or _before_done(
                    body
                )
                plan.extend((i, {**bound, name: v}, part) for v in values)
            else:
                if not body:
                    plan.append((i, bound, None))
                for v in values:
                    if body:  # `for M in a b; do cmd $M`, then more lines
                        text = _with_arguments(body, _arguments_at(args, i)) or body
                        plan.append((i, {**bound, name: v}, text))
                    walk(i + 1, close, {**bound, name: v}, turns * len(values), args, active)
                plan.append((close, bound, None))
            i = close + 1

    def expand(call, bound, turns, outer, active, at):
        name, given = call
        first, close = functions.bodies[name]
        functions.expanded += 1
        size = sizes[close + 1] - sizes[first]
        if len(active) >= 3 or functions.expanded > FUNCTION_CALLS or size > budget[0]:
            if size > budget[0]:
                budget[0] = 0  # spent: the rest is read as written
            if name not in read_as_written:
                read_as_written.add(name)  # (as written: not with the caller's arguments)
                walk(first + 1, close, bound, turns, None, (*active, name))
            return
        budget[0] -= size
        # An argument may itself be the caller's (`run "$1"` inside another function). Only
        # places are put in: a label (`run s64 …`, a seed) names the call, and what is built
        # from it (`$OUT/$id`) is each call's own place, left unsaid as before.
        values = [_with_arguments(a, _arguments_at(outer, at)) or a for a in given]
        named, shifted, offsets, depth = {}, 0, {}, 0
        for index in range(first + 1, close):
            line = lines[index][1]
            offsets[index] = shifted
            if shifted is None:
                continue  # (after a `shift` only some runs take, the arguments are not known)
            if (m := ARGUMENT_VARIABLE.match(line)) and m.group(2) != "0":
                position = int(m.group(2)) + shifted
                if position <= len(values) and _placed(values[position - 1]):
                    named[m.group(1)] = values[position - 1]
            depth += len(BLOCK_OPENS.findall(line)) - len(BLOCK_CLOSES.findall(line))
            if "shift" in line and (steps := list(SHIFT.finditer(line))):
                conditional = depth > 0 or BLOCK_OPENS.search(line) or "&&" in line or "||" in line
                shifted = (
                    None if conditional else shifted + sum(int(m.group(1) or 1) for m in steps)
                )
        walk(first + 1, close, {**bound, **named}, turns, (values, offsets), (*active, name))

    def _expandable(i, turns):
        """(name, values, the `done` line, the command after `do` on the header) of a loop
        read turn by turn, else None."""
        m = LOOP_HEADER.match(lines[i][1]) if budget[0] > 0 else None
        values = _loop_values(m.group(2), variables, arrays) if m else None
        if not values or turns * len(values) > LOOP_TURNS:
            return None
        opens = _loop_opens(lines, i, m)
        if not ends:
            ends.update(_loop_ends(lines) or {None: None})
        close = ends.get(opens)
        if close is None or (close == opens and opens != i):
            return None
        size = (sizes[close + 1] - sizes[i]) * (len(values) - 1)
        if size > budget[0]:
            budget[0] = 0  # spent: the rest of the script is read as written
            return None
        budget[0] -= size
        return m.group(1), values, close, (m.group(3) or "").strip()

    walk(0, len(lines), {}, 1)
    return plan


# `name() {` / `function name {`: the name.
FUNCTION_NAME = re.compile(r"\s*(?:function\s+)?([\w.-]+)")
# A function's positional parameters: `$1`, `${2}`, `${1:-default}`, `"$@"`, `$*`.
POSITIONAL_PARAMETER = re.compile(r"\$\{([1-9])(?::?-([^}]*))?\}|\$([1-9])(?!\w)|\$\{?[@*]\}?")
# What ends a call's arguments.
CALL_END = {";", "&&", "||", "|", "&", ">", ">>", "2>", "2>&1", "&>"}
FUNCTION_CALLS = 64  # calls read with their arguments, per script (then as written)


# A block of commands some runs take and others not (`if`, `case`, a loop) opens and closes.
BLOCK_OPENS = re.compile(r"(?:^|[;&|])\s*(?:if|case|while|until|for)\b")
BLOCK_CLOSES = re.compile(r"(?:^|[;&|])\s*(?:fi|esac|done)\b")
SHIFT = re.compile(r"(?:^|[;&|])\s*shift(?:\s+(\d+))?\s*(?=;|&|\||$)")


def _placed(value):
    """A call's argument that names a place: a path, a URI, a Hub id or a variable's value."""
    return bool(value) and (_is_path(value) or "/" in value)


def _arguments_at(args, index):
    """A call's arguments as the body's line `index` sees them (after its `shift`s); None
    when they are not known there."""
    if args is None:
        return None
    values, offsets = args
    offset = offsets.get(index, 0)
    return None if offset is None else values[offset:]


def _with_arguments(text, args):
    """The text with a function call's arguments in place of `$1` … and `$@` (an argument that
    names no place is left as written); None when there is nothing to put in."""
    if args is None or "$" not in text:
        return None

    def one(match):
        position = match.group(1) or match.group(3)
        if position is None:
            return " ".join(args)
        if int(position) <= len(args):
            value = args[int(position) - 1]
            return value if _placed(value) else match.group(0)
        return match.group(2) if match.group(2) is not None else match.group(0)

    replaced = POSITIONAL_PARAMETER.sub(one, text)
    return replaced if replaced != text else None


# A setting written before a command (`OMP_NUM_THREADS=4 dp train …`).
ASSIGNMENT_WORD = re.compile(r"[A-Za-z_]\w*+=")
# Programs that run another in a container: the program they run is the command's too.
CONTAINER_RUNNERS = {"singularity", "apptainer", "docker", "podman", "shifter", "enroot"}


def _program_at(command):
    """Where the command's own program is: past settings (`A=b`), `env`, `time`, `nohup`,
    `exec`, and a launcher with its options (`srun -n 4`, `mpirun --bind-to core -np 4`); -1
    if none."""
    i = 0
    while i < len(command):
        word = command[i]
        if ASSIGNMENT_WORD.match(word) or word in ("env", "time", "nohup", "exec", "command"):
            i += 1
        elif _base(word) in (LAUNCHERS - {"bash", "sh"}) | DECK_LAUNCHERS:
            at = _launched_at(command[i:])
            if not at:
                return -1
            i += at
        else:
            return i
    return -1


def _launched_at(command):
    """Where the program a launcher starts is (`mpirun -np $N ./sim`, `mpiexec -n 4 prog`): the
    first word that is neither an option nor a number or variable given to one, nor the value
    of a launcher's option that takes one (`--bind-to core`, `-x VAR`, `--hostfile h`, `--mca
    btl tcp`); 0 if none."""
    skip, mpi = 0, _base(command[0]) in MPI_LAUNCHERS
    for i, word in enumerate(command[1:], 1):
        if skip:
            skip -= 1
            continue
        if word[:1] == "-":
            skip = LAUNCHER_VALUED.get(word, 0) if mpi else 0
            continue
        if word[:1] in "0123456789":
            continue
        if word[:1] == "$" and command[i - 1][:1] == "-" and "=" not in command[i - 1]:
            continue  # (`-np $SLURM_NPROCS`: the option's value)
        return i
    return 0


class _Functions:
    """The shell functions of a script defined over several lines and called in it:
    `bodies` name -> (index of the first line, index of the closing `}`), `starts` first line ->
    closing line, for those called at least once."""

    def __init__(self, bodies, starts):
        self.bodies, self.starts = bodies, starts
        self.expanded = 0  # calls met so far while reading

    def call(self, line):
        """(name, arguments) when the line calls one of the functions, else None."""
        head = line.split(None, 1)
        if not head or head[0].rstrip(";&") not in self.bodies:
            return None
        words = _words(line)
        if not words or words[0] not in self.bodies:
            return None
        args = []
        for word in words[1:]:
            if word in CALL_END or word.startswith((">", "2>")):
                break
            args.append(word)
        return words[0], args


def _called_functions(lines):
    bodies, open_at = {}, None
    for i, (_, line) in enumerate(lines):
        if open_at is None:
            if ("(" in line or "function" in line) and FUNCTION_START.match(line):
                open_at = i
        elif FUNCTION_END.match(line):
            bodies[FUNCTION_NAME.match(lines[open_at][1]).group(1)] = (open_at, i)
            open_at = None
    found = _Functions(bodies, {})
    calls = 0
    for _, line in lines:
        if calls < FUNCTION_CALLS and (call := found.call(line)):
            calls += 1
            first, close = bodies[call[0]]
            found.starts[first] = close
    # Only those called; the others are read where they are.
    found.bodies = {n: b for n, b in bodies.items() if b[0] in found.starts}
    return found


def _packed_environment(path):
    """A packed Python or conda environment copied to the node (PACKED_ARCHIVE, ENVIRONMENT_NAME)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    archive = PACKED_ARCHIVE.search(name)
    return bool(archive) and bool(ENVIRONMENT_NAME.match(name[: archive.start()]))


def _fetch_folder(place):
    """A folder a fetch can land in, as the script names it: a path or a relative folder, not
    one that climbs back (`cd ..`) or an option."""
    if not place or ".." in place.split("/"):
        return False
    return not NODE_LOCAL.match(place) and bool(_is_path(place) or RELATIVE.fullmatch(place))


# Commands that only mark, list or measure a place: they do not use the data in it.
LOOKS_ONLY = {"touch", "ls", "du", "df", "stat", "echo", "printf", "chmod", "chgrp", "mkdir"}


def _first_word(text):
    words = text.split(None, 1)
    return words[0] if words else ""


def _download_products(reader, lines, read_lines):
    """The downloads whose local copy no later line names (as written or expanded): what a
    download job makes, its output. One a later step uses is staging, left unsaid. (A script
    of many downloads is a pipeline that uses them: the first few are looked at, to stay
    linear.)"""
    products = []
    for download, index, forms in reader.downloads[:16]:
        named = re.compile("|".join(rf"(?<![\w.-]){re.escape(f)}(?![\w.-])" for f in forms))
        later = (
            text for i in range(index + 1, len(lines)) for text in (lines[i][1], read_lines[i])
        )
        # A step that only marks, lists or measures the copy (`touch $D/final/finished.txt`,
        # `ls $D`, `du -sh $D`) does not use it.
        if not any(named.search(text) for text in later if _first_word(text) not in LOOKS_ONLY):
            products.append(download)
    return products


# A variable naming a checkpoint inside another's folder: `CKPT="${RUN_DIR}/checkpoints/best"`.
CHECKPOINT_UNDER = re.compile(
    r"^\$\{?([A-Za-z_]\w*)\}?/(?:checkpoints?|ckpts?)(?:/|$)", re.IGNORECASE
)


def _checkpoints_in_outputs(reader, text):
    """A folder the program is told to write to (`--artifact-dir "$RUN"`) that the script also
    names checkpoints in (`CKPT="$RUN/checkpoints/best"`, then `--checkpoint "$CKPT"`) is where
    the job checkpoints, as well as what it writes."""
    if "checkpoint" not in text.lower() and "ckpt" not in text.lower():
        return
    values = reader.variables.values
    for name, raw in values.items():
        m = CHECKPOINT_UNDER.match(raw) if "$" in raw else None
        if not m or m.group(1) not in values:
            continue
        if not re.search(rf"\$\{{?{name}\}}?(?!\w)", text):
            continue  # named, never used
        place = reader.expand(values[m.group(1)]).rstrip("/")
        for i, p in enumerate(reader.found):
            if p.path == "output.artifacts" and str(p.value).rstrip("/") == place:
                said = f"{p.said}, checkpoints in it ({name}={raw})"
                point = Proposal("request.checkpoint_location", p.value, p.line, p.text, said,
                                 p.section)  # fmt: skip
                reader.found.insert(i + 1, point)
                return


# A default that is only another variable (`${WORK:-$PWD}`).
VARIABLE_ONLY = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def _defaults(text, variables):
    """`${X:-default}`: X's value when the script sets it, else the default; but a default that
    is only another variable the script does not set either (`${WORK:-$PWD}`,
    `${CAPSCRATCH:-$SCRATCH}`) is no value the file gives: X it is, the environment's (`$WORK`),
    as the shell takes it wherever X is set (the default only stands in where it is not)."""
    if "${" not in text:
        return text

    def fill(m):
        if value := variables.values.get(m.group(1)):
            return value
        default = _unquote(m.group(2))
        if (other := VARIABLE_ONLY.fullmatch(default)) and other.group(1) not in variables.values:
            return "$" + m.group(1)
        return default

    return DEFAULTED.sub(fill, text)


def _expand_words(line, variables):
    line = _defaults(line, variables)
    # An assignment's own name must stay for the assignment reader.
    if m := re.match(r"^(\s*(?:export\s+)?[A-Za-z_]\w*=)(.*)$", line):
        return m.group(1) + variables.expand(m.group(2), record=False)
    return variables.expand(line, record=False)


def _in_places(value, places):
    """True when a path is one of the places or lies inside one."""
    value = value.rstrip("/")
    return value in places or any(value.startswith(place + "/") for place in places if place)


def _settle(found, checkpointed=False):
    """Pair --save/--load, keep one proposal per location and one per single field."""
    loads = {p.value.rstrip("/") for p in found if p.path == "_load"}
    saves = {p.value.rstrip("/") for p in found if p.path == "_save"}
    places = saves | {p.value.rstrip("/") for p in found if p.path == "request.checkpoint_location"}
    out = []
    for p in found:
        if p.path == "_save" and p.value.rstrip("/") in loads and not JOB_ID.search(p.value):
            # --save and --load of the same path: the job checkpoints there and resumes.
            out.append(Proposal("request.checkpoint_location", p.value, p.line, p.text,
                                p.said + " (and --load)", p.section))  # fmt: skip
            out.append(Proposal("request.preemptible", True, p.line, p.text,
                                f"--load {p.value}", p.section))  # fmt: skip
        elif p.path == "_save":
            # --save alone (Megatron, fairseq), or a pair under the job's id (a new place each
            # run): where the job writes its checkpoints, nothing resumed.
            out.append(Proposal("request.checkpoint_location", p.value, p.line, p.text,
                                p.said, p.section))  # fmt: skip
        elif p.path == "_load" and p.value.rstrip("/") not in saves:
            # --load without a --save there: a model the job starts from.
            out.append(Proposal("data.inputs", p.value, p.line, p.text, p.said, p.section))
        elif p.path == "_resume" and (
            p.value.lower() in ("true", "1", "yes", "auto", "last")
            or (_in_places(p.value, places) and not JOB_ID.search(p.value))
        ):
            # Resuming from where it saves, a checkpoint file in that folder too (`--resume
            # ckpt/last.pt` beside `--ckpt-dir ckpt`), or its latest checkpoint: it picks up
            # after a stop.
            out.append(Proposal("request.preemptible", True, p.line, p.text, p.said, p.section))
        elif (
            p.path == "_resume"
            and p.said.split(" ", 1)[0] in RESUME_FROM
            and "/" in p.value
            and WEIGHTS_FILE.search(p.value)
        ):
            # A checkpoint file it starts from, not where it saves (`fit --ckpt_path
            # runs/s17/epoch=170.ckpt`): the weights it reads, which says nothing of resuming.
            out.append(Proposal("data.inputs", p.value, p.line, p.text, p.said, p.section))
        elif not p.path.startswith("_"):
            out.append(p)
    checkpoints = [p for p in out if p.path == "request.checkpoint_location"]
    if not checkpoints and not checkpointed:
        # Resuming is only stated when the job also says where it checkpoints.
        out = [p for p in out if p.path != "request.preemptible"]
    # A job that requeues itself is preemptible whether or not it names its checkpoints.
    out += [
        Proposal("request.preemptible", True, p.line, p.text, p.said, p.section)
        for p in found
        if p.path == "_requeue"
    ]
    seen, settled = set(), []
    for p in out:
        key = (p.path, p.value.rstrip("/") if isinstance(p.value, str) else p.value)
        single = p.path in (
            "request.checkpoint_location",
            "request.preemptible",
            "work.image",
            "request.checkpoint_interval",
        )
        if key in seen or (single and any(q.path == p.path for q in settled)):
            continue
        seen.add(key)
        settled.append(p)
    return settled


def serves(text):
    """True when the commands leave a server running (realtime.py decides)."""
    return ends_serving(text)


# The host's system folders: what a container sees there is the node's setup, not data.
# (`/cvmfs`: CernVM-FS, the read-only software tree many clusters share, bound for its modules)
SYSTEM_PLACE = re.compile(r"^/(?:var|etc|usr|opt|run|sys|dev|proc|lib\w*|bin|sbin|cvmfs)(?:/|$)")
# The home folder's user installs and compiler caches (`~/.local`, `~/.triton`): the
# tools' own files, mounted so a container finds them; not the job's data.
HOME_TOOL_FOLDER = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.-]+)/\.(?:local|triton|nv|npm)/?$"
)
# A program run from the working directory (`./build.sh`, `bash run.sh`, `python train.py`).
RELATIVE_PROGRAM = re.compile(
    r"(?:^|[\s;&|])(?:\./[\w.-]+|(?:bash|sh|python3?)\s+[\w-][\w.-]*\.(?:sh|py))"
)
# A container folder named for what its program loads and never writes.
READ_ONLY_MOUNTS = {"packages", "models", "weights", "datasets", "dataset", "input", "inputs"}
# A container folder for what the program writes (`$LOGDIR:/results`).
WRITTEN_MOUNTS = {"results", "outputs"}
# The names a program looks for its data under in its working directory.
DATA_LINK_NAMES = {"data", "dataset", "datasets", "./data", "./dataset", "./datasets"}
# A file of trained weights by its kind: a frozen graph (`frozen_model.pb`, DeePMD-kit's),
# PyTorch and MACE models (`.pt`, `.pth`, `.model`), safetensors. (Used with search on one word,
# anchored at its end: linear.)
MODEL_FILE = re.compile(r"\.(?:pb|pt|pth|model|safetensors)$")
# DeePMD-kit's command line (`dp [--tf|--pt] SUB …`): what each subcommand's options read and
# write. train: a model to start from (-i/-f/-t: --init-model/--init-frz-model/--finetune); freeze: the
# frozen model (-o); compress: -i read, -o written; test: the model (-m) and systems (-s).
DEEPMD_READS = {
    # (`-r`/`--restart`: the checkpoint it resumes from)
    "train": (
        "-i",
        "--init-model",
        "-f",
        "--init-frz-model",
        "-t",
        "--finetune",
        "-r",
        "--restart",
    ),  # fmt: skip
    "compress": ("-i", "--input"),
    "test": ("-m", "--model", "-s", "--system"),
}
DEEPMD_WRITES = {"freeze": ("-o", "--output"), "compress": ("-o", "--output")}

# --- repositories the job runs its program from ------------------------------------------

GIT_URL = re.compile(r"^(?:https?://|git@|ssh://)[^\s\"']{3,300}$")
# Commands that set a place up rather than run the job's program in it.
NOT_RUNNING = {
    "cd", "pushd", "popd", "git", "pip", "pip3", "uv", "conda", "mamba", "micromamba", "mkdir",
    "rm", "echo", "printf", "ls", "export", "source", ".", "apt", "apt-get", "yum", "dnf", "cp",
    "mv", "ln", "wget", "curl", "sleep", "cat", "chmod", "chown", "touch", "true", "false", "set",
    "unset", "if", "fi", "then", "else", "elif", "for", "do", "done", "while", "nvidia-smi",
    "rocm-smi", "which", "pwd", "test", "[", "[[", "sed", "tee", "grep", "head", "tail", "exit",
    "tar", "unzip", "make", "cmake", "ninja", "module", "ulimit", "poetry", "pixi", "npm", "yarn",
    "wait", "trap", "local", "return", "find", "du", "df", "date", "hostname", "env",
    "pkill", "kill", "killall",
}  # fmt: skip
# Project tools whose `run` starts a command in the project of the folder it is run in.
PROJECT_RUNNERS = {"uv", "poetry", "pixi", "pdm", "hatch", "rye"}
INSTALLS = re.compile(r"\bpip3?\s+install\b|\bsetup\.py\b|\s-m\s+pip\b|^\S*python\S*\s+-c\b")
COMMAND_SPLIT = re.compile(r"&&|\|\||;|\|")


def _split_commands(line):
    """The commands of a line, split at `&&`, `||`, `;` and `|` outside quotes (`pkill -f
    "a|b"` is one command)."""
    if "'" not in line and '"' not in line:
        return COMMAND_SPLIT.split(line)
    masked = QUOTED.sub(lambda m: "x" * len(m.group(0)), line)  # same length, no separators
    parts, start = [], 0
    for match in COMMAND_SPLIT.finditer(masked):
        parts.append(line[start : match.start()])
        start = match.end()
    return [*parts, line[start:]]


# A package pip installs from a Git repository (`git+https://github.com/org/repo.git@ref`,
# `repo @ git+…` written as one word too), its URL and ref.
# (anchored: searched, an unanchored one tried at every start of a long word; PIP_GIT in the
# bench's adversarial_lines)
PIP_GIT = re.compile(
    r"\A(?:[\w.-]++\s*+@\s*+)?+git\+(https?://[^\s@#]++)(?:@([\w./-]++))?+(?:#\S*+)?+"
)


# A ref naming a branch, whose code moves (`@main`, `@master`, `@dev`, `@HEAD`): no pin.
BRANCH_REF = re.compile(r"main|master|dev|develop|development|trunk|head|latest|nightly", re.I)


class _Clone:
    def __init__(self, url, directory, ref, line, text, section):
        self.url, self.dir, self.ref = url, directory, ref
        self.line, self.text, self.section = line, text, section
        self.used = False
        self.used_in = set()  # the sections whose commands run from it

    def value(self):
        url = self.url.rstrip("/")
        return f"{url}@{self.ref}" if self.ref and "@" not in url.split("/")[-1] else url


def _clone_of(words):
    """(url, directory, ref) for `git clone [-b ref] url [directory]`, else None."""
    args, ref, skip = [], None, False
    for i, word in enumerate(words[2:], 2):
        if skip:
            skip = False
        elif word in ("-b", "--branch"):
            ref, skip = (words[i + 1] if i + 1 < len(words) else None), True
        elif word.startswith("--branch="):
            ref = word.partition("=")[2]
        elif word in ("--depth", "-o", "--origin", "--reference", "-c", "--config", "-j", "--jobs"):
            skip = True
        elif not word.startswith("-"):
            args.append(word)
    if not args or not GIT_URL.match(args[0]) or "huggingface.co/" in args[0]:
        return None  # (a Hub repository cloned is a model or data, read as such)
    url = args[0]
    directory = args[1] if len(args) > 1 else url.rstrip("/").rsplit("/", 1)[-1].split("@")[0]
    directory = directory.removesuffix(".git").rstrip("/")
    if not directory or not _statable(url) or "$" in url:
        return None
    return url, directory, ref


def _components(path):
    return [c for c in path.replace("\\", "/").split("/") if c and c != "."]


def code_from_clones(sections):
    """work.code proposals: a repository a command clones and the job's program then runs from
    (a program started inside it, or a program path into it), written `url@ref`. A clone only
    installed (`pip install .`) or built is a library, not the job's code.

    sections: [(text, section, first_line)]; each section starts where the job starts (SkyPilot
    runs setup and run each from the workdir)."""
    clones = {}
    if not any("clone" in (text or "") or "git+" in (text or "") for text, _, _ in sections):
        return []
    home = None  # a clone into the working directory itself (`git clone URL .`)
    for text, section, first_line in sections:
        # Each section starts in the working directory: in that clone, when there is one.
        here, depth = home, 0  # the clone the shell is in, and how deep
        away = None  # an absolute place outside any clone the shell changed into (`cd ~`)
        raw = (text or "").splitlines()
        for number, line in logical_lines(text):
            for command in _split_commands(line):
                words = _words(command.strip().lstrip("(").strip())
                while words and (words[0] == "sudo" or re.match(r"^[A-Za-z_]\w*=", words[0])):
                    words = words[1:]
                if not words:
                    continue
                if words[:3] == ["git", "lfs", "clone"]:
                    words = ["git", "clone", *words[3:]]  # (the same clone, large files too)
                if words[:2] == ["git", "clone"] and (found := _clone_of(words)):
                    url, directory, ref = found
                    if away and not directory.startswith(("/", "~", "$")) and directory != ".":
                        # made outside the working directory (`cd ~ && git clone URL`): paths
                        # from the working directory do not reach it, its full place does
                        directory = f"{away}/{directory}"
                    raw_line = raw[number - 1] if number - 1 < len(raw) else line
                    where = (number + first_line - 1, raw_line.strip()[:200], section)
                    clone = clones.setdefault(directory, _Clone(url, directory, ref, *where))
                    if directory == "." and here is None:
                        home = here = clone
                    continue
                if words[0] in ("cd", "pushd", "popd"):
                    if away and here is None and len(words) > 1 and words[1][:1] not in "/~$":
                        words = [words[0], f"{away}/{words[1]}", *words[2:]]
                    here, depth = _cd(words, here, depth, clones)
                    target = words[1] if len(words) > 1 else ""
                    away = target.rstrip("/") if here is None and target[:1] in "/~$" else None
                    if away in WORKING_DIRECTORIES:
                        away = None  # (SkyPilot's working directory, where each section starts)
                    continue
                if words[0] == "git" and here and depth == 0 and len(words) > 2:
                    if words[1] == "checkout" and not words[2].startswith("-"):
                        here.ref = words[2]
                    elif words[1:3] == ["reset", "--hard"] and len(words) > 3:
                        here.ref = words[3]
                    continue
                name = words[0].rsplit("/", 1)[-1]
                if name in PROJECT_RUNNERS and words[1:2] == ["run"] and here:
                    # `uv run tool` in the clone runs a command of the clone's own project
                    # (its environment, its scripts), whatever the command is named
                    here.used = True
                    here.used_in.add(section)
                    continue
                if name in ("pip", "pip3", "uv") and "install" in words[1:3]:
                    # A package installed from a repository at a ref (`pip install
                    # git+https://…/OpenRLHF.git@1bfc…`): the job's code only when the run
                    # starts one of its modules by name (below), else a library. Without a ref
                    # (`pip list | grep vllm || pip install "git+…/vllm.git"`) it is whatever
                    # the repository holds that day: a library the job installs, no code.
                    raw_line = raw[number - 1] if number - 1 < len(raw) else line
                    where = (number + first_line - 1, raw_line.strip()[:200], section)
                    for m in (PIP_GIT.fullmatch(_unquote(w)) for w in words[2:]):
                        # (a branch, `@main`, is no more a pin than no ref: a tag, a version
                        # or a commit is)
                        if m and m.group(2) and not BRANCH_REF.fullmatch(m.group(2)):
                            key = f"git+{m.group(1)}"
                            clones.setdefault(key, _Clone(m.group(1), key, m.group(2), *where))
                    continue
                if name in NOT_RUNNING or INSTALLS.search(" ".join(words)):
                    continue
                if here:
                    here.used = True
                    here.used_in.add(section)
                # A module of the clone run by name (`python -m Clone.app`, the clone installed
                # or on the path): the program is the clone's.
                modules = (
                    b for a, b in zip(words, words[1:], strict=False) if a in ("-m", "--module")
                )
                for module in modules:
                    # (a package is named as its repository is, often in lower case and with
                    # `_` for `-`: FastChat's is `fastchat`)
                    top = _package_name(module.split(".", 1)[0])
                    for clone in clones.values():
                        # (by the folder, or by the repository's own name when the folder
                        # is another: `git clone …/vllm.git vllm_repo`, `python -m vllm.x`)
                        names = (clone.dir.rsplit("/", 1)[-1], _repository_name(clone.url))
                        if top in {_package_name(n) for n in names}:
                            clone.used = True
                            clone.used_in.add(section)
                for word in words if clones else ():
                    parts = _components(word)
                    for clone in clones.values():
                        if clone.dir in parts[:-1]:
                            clone.used = True
                            clone.used_in.add(section)
    # A clone whose programs only setup runs (a weights converter, a data preparer) is a tool
    # that readies the machine when the task has a run of its own: the run's program is the
    # job's code, wherever it comes from.
    running = any(section == "run" for _, section, _ in sections)
    out = []
    for clone in sorted(clones.values(), key=lambda c: c.line):
        if clone.used and not (running and clone.used_in == {"setup"}):
            value = clone.value()
            # (a package pip installed from the repository is said as its install)
            said = (
                f"pip install git+{value}" if clone.dir.startswith("git+") else f"git clone {value}"
            )
            out.append(Proposal("work.code", value, clone.line, clone.text, said, clone.section))
    return out


WORKING_DIRECTORIES = {"~/sky_workdir", "$HOME/sky_workdir", "${HOME}/sky_workdir"}


DOUBLE_SLASH = re.compile(r"(?<=[^/])/{2,}")


def _in_line_order(proposals, line):
    """proposals with those of each path (inputs, outputs, …) in the order the line names
    them; each keeps the slots its path had."""
    out = list(proposals)
    for path in {p.path for p in proposals}:
        slots = [i for i, p in enumerate(proposals) if p.path == path]
        if len(slots) > 1:
            at = _Positions(line)
            ordered = sorted((proposals[i] for i in slots), key=at.of)
            for i, p in zip(slots, ordered, strict=True):
                out[i] = p
    return out


class _Positions:
    """Where proposals' places are written in their line (their own words, else the value
    without the scheme the reader added; the end of the line when neither is there). Asked in
    the order they were read, which is mostly the line's: each is looked for after the last one
    found, then from the start. A look that finds nothing reads the rest of the line, so only a
    bounded number may fail (MISSES); past them the rest keep the order they were read in, and
    a long line is read about once."""

    MISSES = 64

    def __init__(self, line):
        self.line = line
        self.after = 0
        self.misses = self.MISSES

    def of(self, proposal):
        value = str(proposal.value)
        # (its words as `--option value`, or as the line may write them, `--option=value`)
        written = proposal.said.replace(" ", "=", 1) if proposal.said[:1] == "-" else ""
        texts = [
            str(t)
            for t in (proposal.said, written, value, re.sub(r"^hf://(?:datasets/)?", "", value))
            if t
        ]
        for start in dict.fromkeys((self.after, 0)):
            for text in texts:
                if not self.misses:
                    return len(self.line)
                if (at := self.line.find(text, start)) >= 0:
                    self.after = at
                    return at
                self.misses -= 1
        return len(self.line)


def _package_name(name):
    return name.lower().replace("-", "_")


def _repository_name(url):
    """The repository's name in a clone URL (`https://github.com/org/vllm.git` -> `vllm`)."""
    return re.sub(r"\.git$", "", url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1])


def _cd(words, here, depth, clones):
    if words[0] == "popd" or len(words) < 2:
        return None, 0
    target = _components(words[1])
    if words[1].startswith(("/", "~", "$")):
        # A clone made at an absolute place (`git clone URL /opt/x`, then `cd /opt/x`).
        path = words[1].rstrip("/")
        for directory, clone in clones.items():
            if directory.startswith(("/", "~", "$")) and (
                path == directory or path.startswith(directory + "/")
            ):
                return clone, len(target) - len(_components(directory))
        # An absolute place is in a clone only when it names the clone's folder.
        for i, part in enumerate(target):
            if part in clones:
                return clones[part], len(target) - i - 1
        return None, 0
    for part in target:
        if part == "..":
            if here and depth > 0:
                depth -= 1
            else:
                here, depth = None, 0
        elif here:
            depth += 1
        elif part in clones:
            here, depth = clones[part], 0
        else:
            return None, 0
    return here, depth


# --- merging into an importer's description data ------------------------------------------


CUT_SUBSTITUTION = re.compile(r"\$\([^()]*$")


def _no_place(value):
    """A place cut inside a command substitution, the machine itself, or a place named by
    another command's output (`s3://b/$(hostname)/`: not known before the job runs; a date
    stamp is kept, see SHELL_LEFT)."""
    return bool(
        CUT_SUBSTITUTION.search(value)
        or LOOPBACK.match(value)
        or ("$(" in value and SHELL_LEFT.search(value))
    )


HOME_PREFIX = re.compile(r"^(?:\$HOME|\$\{HOME\})(?=/|$)")


def _home_as_tilde(value):
    """`$HOME/llama` and `${HOME}/llama` are the folder a mount names `~/llama`."""
    return HOME_PREFIX.sub("~", value) if isinstance(value, str) else value


def merge(
    proposals, work, data, request, output, notes, under=(), blank=(), exact=None, created=()
):
    """Add proposals the importer has not read already, with a note each.

    Declared items (mounts, directives, sections) stay first; what the commands name
    follows in text order, including cloud copies an importer already added (they are
    moved into text order, not added twice). Paths under a mounted location (`under`)
    belong to that mount's entry and are not added again. Returns the proposals used."""
    used, noted = [], {}
    mounted = [_home_as_tilde(m.rstrip("/")) for m in under if m]

    def inside(value):
        value = _home_as_tilde(value)
        return any(value == m or value.startswith(m + "/") for m in mounted)

    def norm(value):
        return value.rstrip("/") if isinstance(value, str) else value

    lists = {
        "data.inputs": (data, "inputs", "location"),
        "output.artifacts": (output, "artifacts", "destination"),
    }
    # Items the commands also name are re-placed in text order after the declared ones.
    named = {path: {norm(p.value) for p in proposals if p.path == path} for path in lists}
    replaced = set()
    for path, (part, key, field) in lists.items():
        # A place cut inside a command substitution (`s3://b/$(date`, read up to a space) is
        # no place: the commands' own reading of the whole word stands instead. The machine
        # itself (`http://localhost:8000`) is no place for data either.
        items = [i for i in part.get(key) or [] if not _no_place(str(i.get(field)))]
        moved = [i for i in items if set(i) == {field} and norm(i[field]) in named[path]]
        part[key] = [i for i in items if i not in moved]
        replaced |= {norm(i[field]) for i in moved}
    known = {norm(v) for v in (request.get("checkpoint_location"),) if v}
    for part, key, field in lists.values():
        known |= {norm(i.get(field)) for i in part[key]}
    known |= {norm(u.split(" -> ")[0]) for u in data.get("unclassified") or []}
    # Places declared with no direction (a bucket mounted, never named by the commands): a job
    # whose every step reads nothing reads nothing from them either.
    undirected = {norm(u.split(" -> ")[0]) for u in data.get("unclassified") or []}
    for p in proposals:
        value = norm(p.value)
        if p.path in lists:
            part, key, field = lists[p.path]
            if value in known or (inside(value) and value not in replaced):
                continue
            part[key].append({field: p.value})
            known.add(value)
            placed = f"{p.path}.{len(part[key]) - 1}.{field}"
        elif p.path == "data.unclassified":
            target = norm(p.value.split(" -> ")[0])
            if target in known or inside(target):
                continue
            data.setdefault("unclassified", []).append(p.value)
            known.add(target)
            placed = f"data.unclassified.{len(data['unclassified']) - 1}"
        elif p.path == "request.checkpoint_location":
            in_blank = any(
                value == b.rstrip("/") or value.startswith(b.rstrip("/") + "/") for b in blank
            )
            if request.get("checkpoint_location"):
                continue
            location = p.value
            if inside(value) and not in_blank:
                # Under a mount the job writes into (`--output_dir /artifacts/run --save_steps
                # 500`, /artifacts a bucket): that bucket holds the checkpoints.
                artifact = _written_mount(value, output)
                if not artifact:
                    continue
                location = artifact["destination"]
                point = str(artifact.get("name")).rstrip("/")
                if point not in created and not any(
                    q.path == "output.artifacts"
                    and isinstance(q.value, str)
                    and (norm(q.value) == point or q.value.startswith(point + "/"))
                    for q in proposals
                ):
                    # The mount was written for its checkpoints only (the trainer's output
                    # folder, saved into every N steps): it is the checkpoint place, not also
                    # an output handed back. (A bucket the launcher creates for the task,
                    # `name:` without `source:`, holds what the job hands back: it stays.)
                    output["artifacts"] = [a for a in output["artifacts"] if a is not artifact]
                said = f"{p.said}, under the mount of {location}"
                p = Proposal(p.path, location, p.line, p.text, said, p.section)
            request["checkpoint_location"] = location
            known.add(value)
            placed = "request.checkpoint_location"
        elif p.path == "request.preemptible":
            if "preemptible" in request:
                continue
            request["preemptible"] = True
            placed = "request.preemptible"
        elif p.path == "work.code":
            if value in {norm(c) for c in work.get("code") or []}:
                continue
            work.setdefault("code", []).append(p.value)
            placed = f"work.code.{len(work['code']) - 1}"
        elif p.path == "work.credentials":
            if p.value in (work.get("credentials") or []):
                continue
            work.setdefault("credentials", []).append(p.value)
            placed = f"work.credentials.{len(work['credentials']) - 1}"
        elif p.path == "request.checkpoint_interval":
            if request.get("checkpoint_interval"):
                continue
            request["checkpoint_interval"] = p.value
            placed = "request.checkpoint_interval"
        elif p.path == "work.image":
            if work.get("image"):
                continue
            work["image"] = p.value
            placed = "work.image"
        elif p.path == "note":
            where = f"line {p.line}" + (f" of {p.section}" if p.section else "")
            line = f"`{p.value}` ({where}): data moved by DVC, from or to a remote the file "
            line += "does not name; the format has no place for it."
            if line not in notes:
                notes.append(line)
            continue
        elif p.path == "remark":
            if p.value not in notes:
                notes.append(p.value)
            continue
        elif p.path == "data.no_inputs":
            # What the commands only hand back (an image pushed, a file uploaded) is no place
            # the job reads; a mount it writes into (named by its path) may be read too.
            # A mount the commands plainly write into (`dd if=/dev/urandom of=/out/x`) while
            # every step reads nothing is not read either.
            written_in = [
                norm(q.value) for q in proposals if q.path == "output.artifacts" and q is not p
            ]
            delivered = {
                norm(a.get("destination"))
                for a in output.get("artifacts") or []
                if not a.get("name")
                or any(
                    isinstance(w, str) and (w + "/").startswith(norm(a["name"]) + "/")
                    for w in written_in
                )
            }
            if known - undirected - delivered or data.get("inputs") or "no_inputs" in data:
                continue
            data["no_inputs"] = True
            notes.append(
                "Reads no data: every step the job runs is a message, a wait, a check of the "
                "machine or a benchmark that makes up its own data."
            )
            used.append(p)
            continue
        else:
            continue
        used.append(p)
        noted[p.path] = noted.get(p.path, 0) + 1
        if noted[p.path] <= NOTES_PER_FIELD:
            notes.append(p.note())
        if exact is not None and p.text:
            # The line it was read from, for the partner to check (provenance.sources).
            exact.append({"path": placed, "line": p.line, "text": p.text})
    for path, count in noted.items():
        if count > NOTES_PER_FIELD:
            notes.append(f"{path}: {count - NOTES_PER_FIELD:,} more read from the commands.")
    for part, key, _ in lists.values():
        if not part[key]:
            del part[key]
    return used


# Each value read is noted with where it was read, up to this many per field: a generated
# script can name thousands (the format keeps at most 50 entries of a list), and a page of
# thousands of notes helps nobody.
NOTES_PER_FIELD = 100


def _written_mount(path, output):
    """The written mount (an output named by its mount point, with a destination) that path
    is under, if any."""
    for artifact in output.get("artifacts") or []:
        point = str(artifact.get("name") or "").rstrip("/")
        if (
            point.startswith("/")
            and artifact.get("destination")
            and (path == point or path.startswith(point + "/"))
        ):
            return artifact
    return None


# --- the importers' hooks -------------------------------------------------------------------

NO_OUTPUT = "Output not declared"
SHIFTER_DIRECTIVE = re.compile(r"^#SBATCH\s+--image(?:=|\s+)[\"']?([^\s\"'#]+)")


def fill_sbatch(results, lines, first_command, log_folders=()):
    """sbatch: read the script's commands (after its #SBATCH header) into each component.
    log_folders: where the job's own console logs go; the script naming that folder (a
    `LOGDIR` it tests is writable) names the logs' place, not an output it delivers."""
    text = "\n".join(lines[first_command:])
    proposals = read(text, first_line=first_command + 1, shared_disk=True)
    proposals = [
        p
        for p in proposals
        if not (
            p.path == "output.artifacts"
            and str(p.value).rstrip("/") in log_folders
            # (a program told to write its results there still delivers them: `train.py
            # --out results/run` with the job's log in results/run too)
            and not p.said.startswith("-")
        )
    ]
    proposals = _not_run(proposals + code_from_clones([(text, "", first_command + 1)]))
    proposals = _mounted_inputs(_copied_code(proposals, text))
    proposals = _in_use_order(_named_within(proposals), text, first_command + 1)
    if any((description.get("request") or {}).get("preemptible") for description, _ in results):
        proposals = _requeued_saves(proposals)
    for number, line in enumerate(lines[:first_command], 1):
        # Shifter takes its image as a directive (`#SBATCH --image=docker:ubuntu`).
        if m := SHIFTER_DIRECTIVE.match(line):
            said = f"#SBATCH --image={m.group(1)}"
            proposals.insert(0, Proposal("work.image", m.group(1), number, line.strip(), said))
    exact = []
    for description, notes in results:
        parts = {k: description.get(k) or {} for k in ("work", "data", "request", "output")}
        exact.append([])
        used = merge(proposals, *parts.values(), notes, exact=exact[-1])
        if used and parts["output"].get("artifacts"):
            notes[:] = [n for n in notes if not n.startswith(NO_OUTPUT)]
        for key, part in parts.items():
            if part:
                description[key] = part
    return exact


# Inputs looked at by the rules below (each a pass over the text or the other inputs): a
# variable's first use is looked for in 16 times as many lines.
USE_LOOKUPS = 64
# A copy made with cp or rsync (the proposal's `said`).
COPY_SAID = re.compile(r"^(?:cp|rsync)\s")


def _copied_code(proposals, text):
    """A folder the job copies to the node (or to a folder it makes and works in) and then runs
    from is its code, named by where it is copied from, not data it reads: the copy bound into
    its container as the code, pip-installed (`pip install -e $TMPDIR/repo`), or holding the
    program it runs (`python repo/src/train.py`)."""
    code = [p for p in proposals if p.path == "work.code"]
    out = list(proposals)
    copied = [
        p
        for p in proposals
        if p.path == "data.inputs" and isinstance(p.value, str) and COPY_SAID.match(p.said)
    ]
    for p in copied[:USE_LOOKUPS]:  # (each looks through the text once)
        places = [w.rstrip("/") for w in p.said.split()[1:] if not w.startswith("-")]
        source = p.value.rstrip("/")
        if len(places) < 2 or source not in {w.removesuffix("/*") for w in places[:-1]}:
            continue
        name = source.rsplit("/", 1)[-1]
        if not name or not RELATIVE.fullmatch(name):
            continue
        copies = {places[-1], f"{places[-1]}/{name}"}
        bound = [c for c in code if str(c.value).rstrip("/") in copies]
        if not bound and not _runs_from(name, text):
            continue
        for c in bound:
            if c in out:
                out[out.index(c)] = Proposal("work.code", source, c.line, c.text, c.said, c.section)
        if bound or source in {str(c.value).rstrip("/") for c in code}:
            out.remove(p)
        else:
            out[out.index(p)] = Proposal("work.code", source, p.line, p.text, p.said, p.section)
    return out


# A variable set to a place (`DATA_DIR=./data/countdown`), as the proposal's `said` gives it.
SAID_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=\S")


def _named_within(proposals):
    """A folder read only as a variable's value (`DATA_DIR=./data/countdown`) whose files the
    commands name (`data.train_files=$DATA_DIR/train.parquet`): those files are what is read,
    one entry each, not the folder besides."""
    read = [str(p.value) for p in proposals if p.path == "data.inputs"]
    if len(read) > USE_LOOKUPS * 8:
        return proposals  # (each input is looked for under every other one)
    return [
        p
        for p in proposals
        if not (
            p.path == "data.inputs"
            and SAID_ASSIGNMENT.match(p.said)
            and sum(
                r.startswith(str(p.value).rstrip("/") + "/") and bool(DATA_FILE.search(r))
                for r in read
            )
            > 1
        )
    ]


def _in_use_order(proposals, text, first_line):
    """Inputs are numbered in the order the commands name them: one known from a variable's
    value (`export BASE_MODEL=Qwen/Qwen2-0.5B`) takes its place where a command first uses the
    variable (`actor_rollout_ref.model.path=$BASE_MODEL`), not where it is set."""
    inputs = [p for p in proposals if p.path == "data.inputs"]
    if len(inputs) < 2 or not any(SAID_ASSIGNMENT.match(p.said) for p in inputs):
        return proposals
    lines = text.split("\n")
    at = {}
    for p in inputs:
        at[id(p)] = p.line
        if SAID_ASSIGNMENT.match(p.said) and len(at) <= USE_LOOKUPS:
            name = p.said.split("=", 1)[0]
            use = re.compile(rf"\$\{{?{name}\b")
            start = max(p.line - first_line + 1, 0)
            for number in range(start, min(len(lines), start + USE_LOOKUPS * 16)):
                if use.search(lines[number]) and not lines[number].lstrip().startswith("#"):
                    at[id(p)] = number + first_line
                    break
    ordered = iter(sorted(inputs, key=lambda p: at[id(p)]))
    return [next(ordered) if p.path == "data.inputs" else p for p in proposals]


def _runs_from(name, text):
    """Whether the script pip-installs a folder of that name (`pip install -e $TMPDIR/name`) or
    runs a program in it (`python name/src/train.py`, `bash $TMPDIR/name/run.sh`)."""
    for line in text.split("\n"):
        if name not in line:
            continue
        words = [_unquote(w) for w in line.split()]
        editable = "pip" in line and "install" in words
        for before, word in zip(["", *words], words, strict=False):
            if editable and before == "-e" and (word == name or word.endswith("/" + name)):
                return True
            if (
                word.endswith((".py", ".sh"))
                and (word.startswith(name + "/") or f"/{name}/" in word)
                and not word.startswith("-")
            ):
                return True
    return False


def _mounted_inputs(proposals):
    """A container mount whose host side the job is already said to read (`DATA_PATH=…`, then
    `-B "$DATA_PATH":/workspace/data`) is that input, not also a mount of unknown use."""
    read = {str(p.value).rstrip("/") for p in proposals if p.path == "data.inputs"}
    return [
        p
        for p in proposals
        if not (
            p.path == "data.unclassified"
            and isinstance(p.value, str)
            and p.value.rpartition(" -> ")[2].rstrip("/") in read
        )
    ]


def _requeued_saves(proposals):
    """A job Slurm requeues (`--requeue`, a trap that requeues it) starts its commands again:
    the folder its trainer saves into (`--save-path exp/run`, `--save_dir`) is where the
    next run picks up, its checkpoint place, not only what it hands back at the end."""
    return [
        Proposal("request.checkpoint_location", p.value, p.line, p.text, p.said, p.section)
        if p.path == "output.artifacts" and SAVE_OPTION.fullmatch(p.said.split(" ", 1)[0])
        else p
        for p in proposals
    ]


# A plain assignment at a line's start (not exported: a program cannot see it).
PLAIN_ASSIGNMENT = re.compile(r"^[ \t]*([A-Za-z_]\w*)=", re.MULTILINE)
# A whole line commented out (`#SBATCH` directives are read elsewhere).
COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.MULTILINE)


LEFTOVERS = 64  # unused assignments looked for elsewhere in the text, per script


# A file moved into a variable's folder (`${TRAINED_MODELS_DIR}/${NAME}`, `$OUT_DIR/x.pt`)…
MOVED_INTO = re.compile(r"(\$\{?([A-Za-z_]\w*+)\}?)/[^/\s]++")
# …whose name says the job makes what it holds (`TRAINED_MODELS_DIR`, `OUTPUT_DIR`,
# `SAVE_FOLDER`, `RESULTS_DIR`).
MADE_FOLDER_VARIABLE = re.compile(
    r"^(?:[A-Za-z]+_)?(?:TRAINED|OUTPUTS?|OUT|SAVED?|FINAL|EXPORT(?:ED)?|RESULTS?)_(?:[A-Za-z]+_)?"
    r"(?:DIR|FOLDER)$",
    re.IGNORECASE,
)


# A Python program's subcommands that train (`main.py train …`, Lightning's `cli.py fit …`).
TRAIN_SUBCOMMANDS = {"train", "fit", "finetune", "fine-tune", "pretrain"}


def _unused(text):
    """Names the text sets with a plain assignment and never uses (`$NAME`, `${NAME…}`), nor
    exports: a value left over (`MODEL_PATH=/models/x`, the program given the path outright)."""
    used = {m.group(1) or m.group(2) for m in SUBMIT_VARIABLE.finditer(text)}
    used |= set(re.findall(r"\$\{!?([A-Za-z_]\w*)", text))
    exported = set(re.findall(r"\b(?:export|declare\s+-\w*x\w*)\s+([A-Za-z_]\w*)", text))
    return set(PLAIN_ASSIGNMENT.findall(text)) - used - exported


def _not_run(proposals):
    """A repository the job runs its program from is its code, not data it unpacks."""
    code = {str(p.value).split("@")[0].rstrip("/") for p in proposals if p.path == "work.code"}
    return [
        p
        for p in proposals
        if not (p.path == "data.inputs" and p.said.startswith("git lfs clone") and p.value in code)
    ]


# The working directory named outright (`$PWD/x`, `${PWD}/x`, `./x`) is the `x` a relative
# path names.
HERE = re.compile(r"^(?:\$\{?PWD\}?/|\./)+")


def _here(path):
    return HERE.sub("", path)


def _staged_for_run(proposals):
    """A place a step writes that a later step reads (`prepare.py --output_dir D` in setup,
    `DATA_DIR=D` or `ln -s D data/x` after it) is staging on the node's own disk: the data the
    run reads, not something the job hands back. When the writing step names what it copies
    from (`--input s3://x`), that source is the input and the place only its local copy.
    (Not on a cluster's shared disk, where a file an earlier step writes stays after the job:
    see _Reader.produced.)"""
    outputs = [p for p in proposals if p.path == "output.artifacts" and isinstance(p.value, str)]
    if not outputs:
        return proposals
    drop = set()
    # (where each stands, by identity: positions do not change below, and a search by
    # equality would compare every field of every proposal)
    position = {id(p): i for i, p in enumerate(proposals)}
    for out in outputs:
        place = _here(out.value).rstrip("/")
        order = position[id(out)]
        later = [
            p
            for p in proposals[order + 1 :]
            if p.path == "data.inputs"
            and isinstance(p.value, str)
            and (_here(p.value).rstrip("/") == place or _here(p.value).startswith(place + "/"))
        ]
        if not later or not place:
            continue
        drop.add(id(out))
        # (the same command: a converter's `--input_dir A \` above its `--output_dir B`)
        sourced = any(
            p.path == "data.inputs"
            and (p.command or p.line, p.section) == (out.command or out.line, out.section)
            for p in proposals
        )
        if sourced:
            drop |= {id(p) for p in later}
        else:
            # The place as the writing step names it (`DATA_DIR=D/` reads D; a file it put
            # there, `D/requests.jsonl`, is D's too): one input, where it is first read.
            same = {id(p) for p in later}
            drop |= {id(p) for p in later[1:]}
            proposals = [
                Proposal(p.path, place, p.line, p.text, p.said, p.section) if id(p) in same else p
                for p in proposals
            ]
    return [p for p in proposals if id(p) not in drop]


# A trainer's configuration override naming the bucket it uploads to (Hydra's
# `gcs.bucket=name`, `storage.s3.bucket=name`), and one turning that upload off.
STORE_BUCKET = re.compile(
    r"\+{0,2}(?:[\w-]+\.)*(gcs|gs|s3)\.bucket(?:_name)?=[\"']?([a-z0-9][a-z0-9._-]{1,62})[\"']?"
)
STORE_OFF = re.compile(
    r"\+{0,2}(?:[\w-]+\.)*(?:gcs|gs|s3)\.enabled=[\"']?(?:false|0|no)[\"']?", re.I
)
STORE_BUCKET_WORD = re.compile(r"(?:gcs|gs|s3)\.bucket")
STORE_SCHEMES = {"gcs": "gs://", "gs": "gs://", "s3": "s3://"}


def _uploaded_checkpoints(proposals, texts, variables=None):
    """A checkpoint place on the node (`output_dir=/tmp/checkpoints` with a save interval) whose
    trainer is told in the same command which bucket it uploads to (`gcs.enabled=true
    gcs.bucket=name`): the checkpoints are kept in that bucket, the node's folder is staging."""
    if not any("bucket" in t for t in texts.values()):
        return proposals
    lines = {}
    for section, text in texts.items():
        # (with the script's own variables: `output_dir=$CHECKPOINT_DIR`)
        values = script_variables(text, given=variables)
        for _, line in logical_lines(text):
            if "bucket" in line and STORE_BUCKET_WORD.search(line):
                expanded = values.expand(line, record=False)
                lines.setdefault(section, []).append((expanded, _words(expanded)))
    out = []
    for p in proposals:
        if p.path != "request.checkpoint_location" or not isinstance(p.value, str):
            out.append(p)
            continue
        # (the trainer's command: the one handed that place that also names a bucket)
        value, found = p.value.rstrip("/"), None
        for line, words in lines.get(p.section, ()):
            if value not in line:
                continue
            handed = any(w == value or w.endswith(("=" + value, "=" + value + "/")) for w in words)
            uploads = [m for w in words if (m := STORE_BUCKET.fullmatch(w))] if handed else []
            if uploads and not any(STORE_OFF.fullmatch(w) for w in words):
                found = uploads[-1]
        if found:
            scheme, name = STORE_SCHEMES[found.group(1)], found.group(2)
            said = f"{p.said}, uploaded with {found.group(0)}"
            out.append(
                Proposal(p.path, f"{scheme}{name}", p.line, p.text, said, p.section, p.command)
            )
            continue
        out.append(p)
    return out


def _prepared_from_clones(proposals, texts):
    """A step that writes a place (`prepare_dataset.py --tasks-dir ~/gen/tasks --output-dir D`)
    from files of a repository the job cloned (`git clone URL ~/gen`), and names no other
    source: the repository is where its data comes from, the input of that step (so D, read
    later, is staging: _staged_for_run)."""
    if not any("clone" in text for text, _ in texts):
        return proposals
    clones, lines = {}, {}
    for text, section in texts:
        lines[section] = dict(logical_lines(text))
        for _, line in logical_lines(text):
            if "clone" not in line:
                continue
            for command in _commands(_words(line)):
                if command[:2] == ["git", "clone"] and (found := _clone_of(command)):
                    url, directory, _ = found
                    if directory.startswith(("/", "~", "$HOME", "${HOME}")):
                        clones[_home_as_tilde(directory).rstrip("/")] = url
    if not clones:
        return proposals
    out = list(proposals)
    sourced = {(q.command or q.line, q.section) for q in proposals if q.path == "data.inputs"}
    # (only a place a later step reads is staging: the folders of what is read)
    read = {
        a
        for q in proposals
        if q.path == "data.inputs" and isinstance(q.value, str)
        for a in _ancestors(_home_as_tilde(_here(q.value)).rstrip("/"))
    }
    for p in proposals:
        if p.path != "output.artifacts" or p.section not in lines or not isinstance(p.value, str):
            continue
        if _home_as_tilde(_here(p.value)).rstrip("/") not in read:
            continue
        at = (p.command or p.line, p.section)
        if at in sourced:
            continue  # the step names its source already
        words = _words(lines[p.section].get(at[0], ""))
        for before, word in zip(words, words[1:], strict=False):
            place = _home_as_tilde(_unquote(word)).rstrip("/")
            url = next((clones[a] for a in _ancestors(place) if a in clones), None)
            if url and before.startswith("-") and "$" not in url:
                said = f"{before} {word} (in the clone of {url})"
                out.append(Proposal("data.inputs", url, p.line, p.text, said, p.section, p.command))
                sourced.add(at)
                break
    if len(out) == len(proposals):
        return proposals
    # (in text order: the step's source before what later steps read)
    order = {section: i for i, (_, section) in enumerate(texts)}
    return sorted(out, key=lambda q: (order.get(q.section, 0), q.line))


COPY_PROGRAMS = {"cp", "mv", "rsync"}


def _copies_in(texts):
    """[(section order, line, sources, target)] of the copies and moves the commands make
    (`cp -r A B`, `mv A B`, `rsync A B`, `gsutil -m rsync -r A B`, `gsutil cp A B`), their
    places with `$HOME` as `~` and without a trailing `/` or `/*`."""
    found = []
    for order, (text, _) in enumerate(texts):
        for number, line in logical_lines(text):
            if not any(w in line for w in ("cp", "mv", "rsync")):
                continue
            for command in _commands(_words(line)):
                while command and command[0] in ("sudo", "time", "command"):
                    command = command[1:]
                if command[:1] == ["gsutil"]:
                    command = [w for w in command[1:] if w != "-m"]
                if not command or command[0].rsplit("/", 1)[-1] not in COPY_PROGRAMS:
                    continue
                places = [_copied_place(w) for w in _copy_arguments(command)]
                if len(places) >= 2 and all(places):
                    found.append((order, number, places[:-1], places[-1]))
    return found


def _copied_place(word):
    place = _home_as_tilde(_unquote(word))
    if place.endswith("/*"):
        place = place[:-2]
    return place.rstrip("/") if place not in ("/", "") else ""


def _ancestors(path):
    """The path and every folder above it (`/a/b/c`, `/a/b`, `/a`)."""
    out = [path]
    while "/" in path.strip("/"):
        path = path.rsplit("/", 1)[0]
        out.append(path)
    return out


def _under(value, place):
    return value == place or value.startswith(place + "/")


def _through_copies(proposals, texts):
    """On a task's own machines (SkyPilot), the places a copy links: an input the job filled
    itself by an earlier copy (`gsutil -m rsync -r /llama/13b/ ~/llama-13b`, then
    `--input_dir $HOME/llama-13b`) is read from the copy's source, the data it names; an output
    on the node's disk that a later command copies on (`--output_dir ~/hf-output`, then
    `cp -r ~/hf-output/* /artifacts/m`) is a step's intermediate, and where the copy puts it
    holds the result."""
    copies = _copies_in(texts) if texts else []
    if not copies:
        return proposals
    order = {section: i for i, (_, section) in enumerate(texts)}
    # (places the job writes itself: a copy from one of them moves the job's own result; with
    # every folder above them, so a test is a few look-ups, not a pass over them all)
    made = {
        _home_as_tilde(p.value).rstrip("/")
        for p in proposals
        if p.path in ("output.artifacts", "request.checkpoint_location")
        and isinstance(p.value, str)
    }
    above_made = {a for m in made for a in _ancestors(m)}
    # (copies by their target, and by every folder above each source)
    by_target, by_source = {}, {}
    for c in copies:
        by_target.setdefault(c[3], []).append(c)
        for source in c[2]:
            for folder in _ancestors(source):
                by_source.setdefault(folder, []).append(c)

    def own(source):
        return source in above_made or any(a in made for a in _ancestors(source))

    out = []
    for p in proposals:
        value = _home_as_tilde(p.value).rstrip("/") if isinstance(p.value, str) else None
        if not value or "://" in value:
            out.append(p)
            continue
        at = (order.get(p.section, 0), p.command or p.line)
        if p.path == "data.inputs":
            filled = [
                c
                for target in _ancestors(value)
                for c in by_target.get(target, ())
                if (c[0], c[1]) < at
                and len(c[2]) == 1
                and not _under(c[2][0], value)
                and c[2][0].startswith(("/", "~"))
                and not own(c[2][0])
            ]
            if filled:
                copy = max(filled, key=lambda c: (c[0], c[1]))
                source = copy[2][0] + value[len(copy[3]) :]
                said = f"{p.said} (a copy of {source})"
                out.append(Proposal(p.path, source, p.line, p.text, said, p.section, p.command))
                continue
        elif p.path == "output.artifacts":
            onward = any(
                (c[0], c[1]) > at and not _under(c[3], value) for c in by_source.get(value, ())
            )
            if onward:
                continue
        out.append(p)
    # (one entry per place: a source read twice is one input)
    seen, kept = set(), []
    for p in out:
        key = (p.path, p.value) if p.path == "data.inputs" else id(p)
        if key not in seen:
            seen.add(key)
            kept.append(p)
    return kept


def _hub_clone_copies(proposals):
    """A Hub repository the setup clones with git (`git clone https://huggingface.co/org/x`)
    and the run then reads from that folder or a file in it (`chat.py --ckpt_dir
    ~/sky_workdir/x --tokenizer_path ~/sky_workdir/x/tokenizer.model`): one source, the Hub's;
    the folder is its local copy, not a second input."""
    clones = {
        p.value.rstrip("/").rsplit("/", 1)[-1]
        for p in proposals
        if p.path == "data.inputs"
        and isinstance(p.value, str)
        and p.value.startswith("hf://")
        and p.said.startswith("git clone")
    }
    if not clones:
        return proposals
    return [
        p
        for p in proposals
        if not (
            p.path == "data.inputs"
            and isinstance(p.value, str)
            and "://" not in p.value
            and not clones.isdisjoint(p.value.rstrip("/").split("/"))
        )
    ]


def _prepared(found, made):
    """Folders a setup makes (`mkdir -p D`) while it reads data from where it names
    (`prepare.py --dataset org/set`, a bucket, a URL): the node's disk is new, so whatever
    the job later reads there the setup put there. The named source is the input; the
    folder, its local copy, is not."""
    sourced = any(
        p.path == "data.inputs" and isinstance(p.value, str) and "://" in p.value for p in found
    )
    return {f for f in made if f} if sourced else set()


# A Hub id left for the launch to give (`hf://$MODEL_NAME`, see _unset_model).
LAUNCH_MODEL = re.compile(r"hf://(?:datasets/)?\$\{?([A-Za-z_]\w*)\}?")


def _set_by(setup, variables):
    """Names the setup gives a value of its own (the file's envs aside)."""
    return set(script_variables(setup, variables).values) - set(variables.values)


def _launch_model(proposal, set_in_setup):
    """A model the run names by a variable the setup sets (`MODEL_PATH=~/$MODEL_NAME`, put in
    ~/.bashrc for the run) is the setup's, no Hub id given at launch."""
    m = LAUNCH_MODEL.fullmatch(proposal.value) if isinstance(proposal.value, str) else None
    return bool(m) and proposal.path == "data.inputs" and m.group(1) in set_in_setup


def fill_skypilot(task, variables, work, data, request, output, notes):
    """SkyPilot: read setup then run, with envs expanded, into the task's description."""
    proposals, quiet, pulled, prepared, set_in_setup = [], [], {}, set(), set()
    for key in ("setup", "run"):
        if isinstance(task.get(key), str):
            # Container mounts inside a SkyPilot task are the task's own business: its
            # mounts are file_mounts and volumes, read already.
            checkpointed = bool(request.get("checkpoint_location"))
            sets_up, made = [], set()
            found = read(
                task[key],
                variables,
                key,
                binds=False,
                checkpointed=checkpointed,
                pulled=pulled,
                sets_up=sets_up,
                made=made,
            )
            if key == "setup":
                prepared = _prepared(found, made)
                set_in_setup = _set_by(task[key], variables)
            else:
                found = [p for p in found if not _launch_model(p, set_in_setup)]
            # (a setup that only installs and builds reads nothing either)
            quiet.append(any(p.path == "data.no_inputs" for p in found) or any(sets_up))
            proposals += found
    # A pool's commands only ready its workers: the work is sent to them later. Data mounted
    # for the task is there to be read, whatever the commands show (its workdir is its code,
    # and the user's settings and keys copied in, `~/.netrc`, are no data).
    shipped = bool(task.get("pool") or data.get("inputs") or task.get("volumes"))
    said = any(p.path == "data.no_inputs" for p in proposals)
    ran = isinstance(task.get("run"), str)
    if not quiet and not shipped and task.get("run") is None and task.get("setup") is None:
        # Neither setup nor run: a cluster made for later jobs (`sky launch -c jq cluster.yaml`
        # before `sky exec jq job.yaml`) reads nothing.
        quiet = [True]
    if quiet and all(quiet) and not said:
        # No run, or one that only readies the shell (`source .venv/bin/activate`), and a
        # setup that only readies the machine (a development box): nothing is read.
        proposals.append(Proposal("data.no_inputs", True, 1, "", "", "setup"))
        said = True
    if not (said and all(quiet)) or shipped:
        proposals = [p for p in proposals if p.path != "data.no_inputs"]
    proposals = _prepared_from_clones(
        proposals,
        [
            (variables.expand(task[k], record=False), k)
            for k in ("setup", "run")
            if isinstance(task.get(k), str)
        ],
    )
    proposals = _staged_for_run(_hub_clone_copies(proposals))
    proposals = _uploaded_checkpoints(
        proposals,
        {k: task[k] for k in ("setup", "run") if isinstance(task.get(k), str)},
        variables,
    )
    proposals = _through_copies(
        proposals,
        [
            (variables.expand(task[k], record=False), k)
            for k in ("setup", "run")
            if isinstance(task.get(k), str)
        ],
    )
    proposals = [
        p
        for p in proposals
        if not (
            p.path == "data.inputs"
            and isinstance(p.value, str)
            and any(p.value.rstrip("/") == f or p.value.startswith(f + "/") for f in prepared)
        )
    ]
    # With no run there is no program of the job's own: a clone is only installed.
    # The task's envs give the clone's URL, ref and folder their values (`git clone --branch
    # "$BRANCH" "$REPO_URL" "$DIR"`), as SkyPilot sets them before setup runs.
    texts = [
        (variables.expand(task[k], record=False), k, 1)
        for k in ("setup", "run")
        if ran and isinstance(task.get(k), str)
    ]
    proposals = _settle(_not_run(proposals + code_from_clones(texts)), checkpointed=True)
    # A path under a mount point is that mount's data (declared, or named in a note when the
    # section has a shape SkyPilot does not take), never a second input.
    points, blank = [], []
    for key in ("file_mounts", "volumes"):
        section = task.get(key)
        for entry in section if isinstance(section, list) else [section]:
            points += list(entry) if isinstance(entry, dict) else []
            # A mount whose bucket is left for the user to fill names no place but its path.
            blank += [
                variables.expand(str(k), record=False)
                for k, v in (entry.items() if isinstance(entry, dict) else ())
                if isinstance(v, dict) and not v.get("name") and not v.get("source")
            ]
    under = [variables.expand(str(k), record=False) for k in points]
    new_buckets = created_buckets(task, variables)
    created = list(new_buckets)
    proposals = _not_from_new_buckets(proposals, set(new_buckets.values()), notes)
    merge(proposals, work, data, request, output, notes, under=under, blank=blank, created=created)
    return proposals


def created_buckets(task, variables):
    """The buckets the launcher creates for the task (`name:` without `source:`): mount point
    -> bucket name."""
    found = {}
    for key in ("file_mounts", "volumes"):
        section = task.get(key)
        for entry in section if isinstance(section, list) else [section]:
            for point, spec in entry.items() if isinstance(entry, dict) else ():
                if isinstance(spec, dict) and spec.get("name") and not spec.get("source"):
                    name = variables.expand(str(spec["name"]), record=False).strip("/")
                    found[variables.expand(str(point), record=False).rstrip("/")] = name
    return found


def read_back(value, names):
    """The bucket of a store URI when it is one of `names` (`s3://NAME/f`), else None."""
    match = BUCKET_URI.match(str(value))
    return match.group(1) if match and match.group(1) in names else None


def _not_from_new_buckets(proposals, names, notes):
    """A bucket the launcher creates for the task (`names`) starts empty: what the commands
    copy out of it by its URI (`aws s3 cp s3://NAME/f ~/`) is what the job itself put there
    through the mount, not an input."""
    kept = []
    for p in proposals:
        bucket = read_back(p.value, names) if p.path == "data.inputs" else None
        if bucket:
            notes.append(
                f"{p.value} (line {p.line}): read back from the bucket the task creates "
                f"({bucket}), so what the job wrote there, not an input."
            )
            continue
        kept.append(p)
    return kept


# A cloud store's URI and its bucket (`s3://NAME/…`, `gs://NAME`, `r2://NAME/…`).
BUCKET_URI = re.compile(r"^(?:s3|gs|r2|az|oci|cos|bucket)://([^/\s]+)")
