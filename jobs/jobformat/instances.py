"""Cloud instance types an engineer reads as a count of accelerators.

Only the common GPU instance families are listed; an unknown type is kept as written
(request.instance_type) and nothing is inferred from it."""

import re

# type -> (accelerator, count per instance)
GPU_INSTANCES = {
    "p4d.24xlarge": ("A100", 8),
    "p4de.24xlarge": ("A100-80GB", 8),
    "p5.48xlarge": ("H100", 8),
    "p5e.48xlarge": ("H200", 8),
    "p5en.48xlarge": ("H200", 8),
    "p3.2xlarge": ("V100", 1),
    "p3.8xlarge": ("V100", 4),
    "p3.16xlarge": ("V100", 8),
    "p3dn.24xlarge": ("V100-32GB", 8),
    "g4dn.xlarge": ("T4", 1),
    "g4dn.2xlarge": ("T4", 1),
    "g4dn.4xlarge": ("T4", 1),
    "g4dn.8xlarge": ("T4", 1),
    "g4dn.16xlarge": ("T4", 1),
    "g4dn.12xlarge": ("T4", 4),
    "g4dn.metal": ("T4", 8),
    "g5.xlarge": ("A10G", 1),
    "g5.2xlarge": ("A10G", 1),
    "g5.4xlarge": ("A10G", 1),
    "g5.8xlarge": ("A10G", 1),
    "g5.16xlarge": ("A10G", 1),
    "g5.12xlarge": ("A10G", 4),
    "g5.24xlarge": ("A10G", 4),
    "g5.48xlarge": ("A10G", 8),
    "g6.xlarge": ("L4", 1),
    "g6.2xlarge": ("L4", 1),
    "g6.4xlarge": ("L4", 1),
    "g6.8xlarge": ("L4", 1),
    "g6.16xlarge": ("L4", 1),
    "g6.12xlarge": ("L4", 4),
    "g6.24xlarge": ("L4", 4),
    "g6.48xlarge": ("L4", 8),
    "g6e.xlarge": ("L40S", 1),
    "g6e.2xlarge": ("L40S", 1),
    "g6e.4xlarge": ("L40S", 1),
    "g6e.8xlarge": ("L40S", 1),
    "g6e.16xlarge": ("L40S", 1),
    "g6e.12xlarge": ("L40S", 4),
    "g6e.24xlarge": ("L40S", 4),
    "g6e.48xlarge": ("L40S", 8),
    "a2-highgpu-1g": ("A100", 1),
    "a2-highgpu-2g": ("A100", 2),
    "a2-highgpu-4g": ("A100", 4),
    "a2-highgpu-8g": ("A100", 8),
    "a2-megagpu-16g": ("A100", 16),
    "a2-ultragpu-1g": ("A100-80GB", 1),
    "a2-ultragpu-8g": ("A100-80GB", 8),
    "a3-highgpu-8g": ("H100", 8),
    "a3-megagpu-8g": ("H100-MEGA", 8),
    "g2-standard-4": ("L4", 1),
    "g2-standard-8": ("L4", 1),
    "g2-standard-12": ("L4", 1),
    "g2-standard-16": ("L4", 1),
    "g2-standard-32": ("L4", 1),
    "g2-standard-24": ("L4", 2),
    "g2-standard-48": ("L4", 4),
    "g2-standard-96": ("L4", 8),
    "standard_nd96asr_v4": ("A100", 8),
    "standard_nd96amsr_a100_v4": ("A100-80GB", 8),
    "standard_nd96isr_h100_v5": ("H100", 8),
    "standard_nc24ads_a100_v4": ("A100-80GB", 1),
    "bm.gpu.a100-v2.8": ("A100-80GB", 8),
    "bm.gpu.h100.8": ("H100", 8),
}
# Families that never carry an accelerator: AWS general, compute, memory, storage and HPC
# types (c5.4xlarge, m6i.2xlarge, m7i-flex.large, r7iz, x2idn, i4i, hpc7a), GCP's
# (n2-standard-16, c3-highcpu-88, e2-medium), Azure's D/E/F/M/B/L/H series and OCI's
# VM./BM.Standard, DenseIO, Optimized and HPC shapes. GPU families (p4d, g5, a2, a3, g2,
# Standard_N*, BM.GPU*, VM.GPU*) are not among them: an unknown GPU type says nothing.
# Nebius names its CPU presets by platform, cores and memory (cpu-d3_32vcpu-128gb, cpu-e2_4vcpu-16gb)
# and DigitalOcean its droplets by cores and memory (s-4vcpu-8gb); their GPU presets start `gpu-`.
CPU_FAMILIES = re.compile(
    r"^(?:(?:a1|[cmrtxz]\d+[a-z]*(?:-flex)?|i\d+[a-z]*|d\d+[a-z]*|h1|hpc\d+[a-z]*)\.\w+"
    r"|(?:n1|n2|n2d|n4|c2|c2d|c3|c3d|c4|c4a|c4d|e2|m1|m2|m3|m4|t2a|t2d|h3|z3)-"
    r"(?:standard|highmem|highcpu|ultramem|megamem|hypermem|highlssd|micro|small|medium)(?:-\d+)?"
    r"|standard_(?:[defmbl]\d+\w*|h[bcx]?\d+\w*)"
    r"|(?:vm|bm)\.(?:standard|denseio|optimized|hpc)[\w.-]*"
    r"|cpu-[a-z]\d+_\d+vcpu-\d+gb|s-\d+vcpu-\d+gb)$",
    re.IGNORECASE,
)


def accelerators_of_instance(instance_type):
    found = GPU_INSTANCES.get(str(instance_type).strip().lower())
    return [{"type": found[0], "count": found[1]}] if found else []


def is_cpu_instance(instance_type):
    return bool(CPU_FAMILIES.match(str(instance_type).strip()))


# Accelerator models as vendors name them, for the precision check's suggestions: a type is
# known when its letters and digits begin with one of these ("H100 80GB", "h100-sxm", "A100-40GB").
ACCELERATOR_MODELS = (
    "H100", "H200", "H800", "B100", "B200", "B300", "GB200", "GB300", "GH200", "A100", "A800",
    "A10G", "A10", "A30", "A40", "A6000", "A5500", "A5000", "A4500", "A4000", "A2000", "L4",
    "L40S", "L40", "L20", "T4", "V100", "P100", "P40", "K80", "K40", "RTX", "GTX", "QUADRO",
    "TITAN", "GEFORCE", "MI300X", "MI300A", "MI325X", "MI250X", "MI250", "MI210", "MI100",
    "GAUDI", "TPU", "TRAINIUM", "INFERENTIA", "TRN", "INF",
)  # fmt: skip
# A vendor's or product line's name before the model ("nvidia_a100", "Tesla V100", "AMD MI250X").
VENDOR = re.compile(r"^(?:NVIDIA|AMD|TESLA|INSTINCT)+")


def is_known_accelerator(name):
    letters = VENDOR.sub("", re.sub(r"[^A-Z0-9]", "", str(name).upper()))
    return any(letters.startswith(model) for model in ACCELERATOR_MODELS)
