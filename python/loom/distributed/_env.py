"""Where this process sits in a distributed job: rank, world size, local rank, rendezvous.

`discover()` reads the variables that process launchers set, so that
`loom.distributed.init()` works unchanged under loom.launch, torchrun, mpirun and srun.
Sources, first match wins:

    RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE,
    NODE_RANK (loom.launch) or GROUP_RANK (torchrun)         loom.launch, torchrun  "env"
    OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK/_LOCAL_SIZE       Open MPI's mpirun      "mpirun"
    PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS     MPICH (Hydra), Intel MPI "mpirun"
    SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID,
    SLURM_STEP_TASKS_PER_NODE / SLURM_NTASKS_PER_NODE / SLURM_TASKS_PER_NODE  srun  "slurm"
    none of these: one process, rank 0 of 1                                         "single"

The explicit RANK family comes first: a launcher started inside an mpirun or Slurm job
sets it for its children, and those children must not read the outer job's numbers.
Open MPI comes before Slurm because mpirun inside a Slurm allocation leaves the
allocation's SLURM_* variables (describing the batch step, not the MPI ranks) in place.
Start Slurm ranks with srun: the shell of an sbatch script itself has SLURM_PROCID=0 and the
job's SLURM_NTASKS, so a script run there without srun is rank 0 of ranks that never come.

The rendezvous address is MASTER_ADDR, else the first host of the Slurm allocation
(SLURM_JOB_NODELIST, SLURM_NODELIST), else 127.0.0.1 (with a RuntimeWarning when the ranks
span several machines: the others cannot reach it); the port is MASTER_PORT, else 29500.
Without a node variable, node_rank is rank // local_world_size, exact when every machine
runs the same number of ranks.

This module imports nothing from loom's extension: the launcher uses it before any
device exists, and the tests run it with a made-up environment (`discover(env={...})`).
"""
import os
import re
import warnings
from dataclasses import dataclass

DEFAULT_MASTER_ADDR = "127.0.0.1"
DEFAULT_MASTER_PORT = 29500


@dataclass(frozen=True)
class DistEnv:
    """One process's place in the job. Frozen: it describes the launch, which does not change."""
    rank: int
    world_size: int
    local_rank: int
    local_world_size: int
    node_rank: int
    master_addr: str
    master_port: int
    source: str  # "env", "mpirun", "slurm" or "single"


def _error(var, value, why):
    # Every message names the variable: the user fixes a launch script, not loom.
    shown = "(unset)" if value is None else f"={value!r}"
    return ValueError(f"[distributed] {var}{shown}: {why}")


def _int(env, var, minimum=0):
    """The integer in env[var], or None when unset. Blank counts as unset (`export X=`)."""
    raw = env.get(var)
    if raw is None or raw.strip() == "":
        return None
    try:
        value = int(raw.strip(), 10)
    except ValueError:
        raise _error(var, raw, "not an integer") from None
    if value < minimum:
        raise _error(var, raw, f"must be >= {minimum}")
    return value


def _first_int(env, names, minimum=0):
    """(name, value) of the first set variable of `names`, or (names[0], None)."""
    for name in names:
        value = _int(env, name, minimum)
        if value is not None:
            return name, value
    return names[0], None


# ---------------------------------------------------------------- Slurm's compressed lists

def _split_top_level(text):
    """Split at commas outside brackets: "a[1,2],b" -> ["a[1,2]", "b"]."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced ']'")
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth != 0:
        raise ValueError("unbalanced '['")
    parts.append(text[start:])
    return [p for p in parts if p]


def _expand_range_set(body):
    """ "01-03,07" -> ["01", "02", "03", "07"]. The width of the low end sets the zero
    padding, as Slurm does: host names are strings, "node1" and "node01" are different."""
    out = []
    for item in body.split(","):
        lo, sep, hi = item.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"bad range {item!r}")
        if not sep:
            out.append(lo)
            continue
        if int(hi) < int(lo):
            raise ValueError(f"descending range {item!r}")
        out.extend(str(n).zfill(len(lo)) for n in range(int(lo), int(hi) + 1))
    return out


def _expand_host(pattern):
    """One host pattern, possibly with several bracket groups ("r[1-2]n[1-2]" gives 4)."""
    hosts = [""]
    for m in re.finditer(r"([^\[]*)(?:\[([^\]]*)\])?", pattern):
        literal, body = m.groups()
        hosts = [h + literal for h in hosts]
        if body is not None:
            hosts = [h + s for h in hosts for s in _expand_range_set(body)]
    return hosts


def expand_nodelist(nodelist, var="SLURM_JOB_NODELIST"):
    """All hosts of a Slurm host list: "node[01-03,07],gpu5" -> node01 node02 node03 node07 gpu5.

    Written here rather than calling `scontrol show hostnames` because compute nodes need not
    have Slurm's client tools on PATH, and a subprocess per rank at start-up is slow.
    """
    try:
        hosts = [h for part in _split_top_level(nodelist.strip()) for h in _expand_host(part)]
    except ValueError as e:
        raise _error(var, nodelist, f"not a Slurm host list ({e})") from None
    if not hosts:
        raise _error(var, nodelist, "empty host list")
    return hosts


def first_host(nodelist, var="SLURM_JOB_NODELIST"):
    """The first host of a Slurm host list: "node[01-03,07],gpu5" -> "node01"."""
    return expand_nodelist(nodelist, var)[0]


def parse_tasks_per_node(text, var="SLURM_TASKS_PER_NODE"):
    """Slurm's tasks-per-node list: "2(x3),1" -> [2, 2, 2, 1]; "4,2" -> [4, 2]; "4" -> [4]."""
    counts = []
    for item in text.strip().split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:\(x(\d+)\))?\s*", item)
        if not m or int(m.group(1)) < 1:
            raise _error(var, text, "expected counts like '4', '4,2' or '2(x3)'")
        counts.extend([int(m.group(1))] * int(m.group(2) or 1))
    return counts


def slurm_master_addr(env):
    """The first host of the Slurm allocation, or None outside Slurm."""
    for var in ("SLURM_JOB_NODELIST", "SLURM_NODELIST"):
        value = env.get(var, "").strip()
        if value:
            return first_host(value, var)
    return None


# ---------------------------------------------------------------- the sources

# (source, rank var, size var, local rank var, local size var), in order of precedence.
_FAMILIES = (
    ("env", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"),
    ("mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"),
    ("mpirun", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"),
)


def _ranks(env):
    """(source, rank, world, local_rank, local_world, node_rank or None, names for messages)."""
    for source, rank_v, size_v, lrank_v, lsize_v in _FAMILIES:
        if env.get(rank_v) is None and env.get(size_v) is None:
            continue
        node_v, node = None, None
        if source == "env":  # loom.launch sets NODE_RANK; torchrun calls it GROUP_RANK
            node_v, node = _first_int(env, ("NODE_RANK", "GROUP_RANK"))
        return (source, _int(env, rank_v), _int(env, size_v, 1), _int(env, lrank_v),
                _int(env, lsize_v, 1), node, (rank_v, size_v, lrank_v, lsize_v, node_v))
    if env.get("SLURM_PROCID") is not None:
        return _slurm(env)
    return "single", 0, 1, 0, 1, 0, ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", None)


def _slurm(env):
    """srun's variables. SLURM_LOCALID is the rank on this node; the per-node task counts come
    as a compressed list indexed by SLURM_NODEID (one number alone means: every node)."""
    node = _int(env, "SLURM_NODEID")
    lsize_v, local_world = "SLURM_NTASKS_PER_NODE", None
    for var in ("SLURM_STEP_TASKS_PER_NODE", "SLURM_NTASKS_PER_NODE", "SLURM_TASKS_PER_NODE"):
        text = env.get(var, "").strip()
        if text:
            counts = parse_tasks_per_node(text, var)
            if len(counts) > 1 and node is None:
                raise _error("SLURM_NODEID", None,
                             f"must be set to pick this node in {var}={text!r}")
            index = 0 if len(counts) == 1 else node
            if index >= len(counts):
                raise _error("SLURM_NODEID", env.get("SLURM_NODEID"),
                             f"{var}={text!r} lists only {len(counts)} nodes")
            lsize_v, local_world = var, counts[index]
            break
    return ("slurm", _int(env, "SLURM_PROCID"), _int(env, "SLURM_NTASKS", 1),
            _int(env, "SLURM_LOCALID"), local_world, node,
            ("SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", lsize_v, "SLURM_NODEID"))


def _master(env, source, world_size, local_world_size):
    addr = env.get("MASTER_ADDR", "").strip() or slurm_master_addr(env)
    if addr is None:
        addr = DEFAULT_MASTER_ADDR
        if world_size > local_world_size:
            # Not an error (the spec'd default), but ranks on other machines would each
            # dial their own loopback and wait for ever: say so before that happens.
            warnings.warn(f"[distributed] MASTER_ADDR is not set and the job ({source}) spans "
                          f"several machines; using {addr}, which only node 0 can reach",
                          RuntimeWarning, stacklevel=3)
    port = _int(env, "MASTER_PORT", 1)
    if port is None:
        port = DEFAULT_MASTER_PORT
    elif port > 65535:
        raise _error("MASTER_PORT", env["MASTER_PORT"], "must be a TCP port, 1 to 65535")
    return addr, port


def discover(env=None):
    """This process's DistEnv, read from `env` (default os.environ); see the module docstring.

    Raises ValueError (message starting "[distributed]", naming the variable) when the values
    are missing or cannot all be true: a half-set or contradictory environment would otherwise
    surface much later as a rendezvous that never completes.
    """
    env = os.environ if env is None else env
    source, rank, world, lrank, lworld, node, names = _ranks(env)
    rank_v, size_v, lrank_v, lsize_v, node_v = names
    if rank is None:
        raise _error(rank_v, env.get(rank_v), f"must be set along with {size_v}")
    if world is None:
        raise _error(size_v, env.get(size_v), f"must be set along with {rank_v}")
    if rank >= world:
        raise _error(rank_v, env[rank_v], f"must be < {size_v}={world}")
    # A lone process has an obvious place; for several, guessing the local rank would pick
    # the wrong GPU on some of them, so the launcher must say.
    if lrank is None:
        if world != 1:
            raise _error(lrank_v, env.get(lrank_v), f"must be set when {size_v}={world} > 1")
        lrank = 0
    if lworld is None:
        if world != 1:
            raise _error(lsize_v, env.get(lsize_v), f"must be set when {size_v}={world} > 1")
        lworld = 1
    if lworld > world:
        raise _error(lsize_v, env[lsize_v], f"must be <= {size_v}={world}")
    if lrank >= lworld:
        raise _error(lrank_v, env[lrank_v], f"must be < {lsize_v}={lworld}")
    if node is None:
        # Exact when every machine runs the same number of ranks, as loom.launch and
        # torchrun do; mpirun has no variable for the node index.
        node = rank // lworld
    elif node >= world:
        raise _error(node_v, env[node_v], f"must be < {size_v}={world}")
    addr, port = _master(env, source, world, lworld)
    return DistEnv(rank, world, lrank, lworld, node, addr, port, source)
