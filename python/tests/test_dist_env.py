"""loom.distributed._env.discover(): each launcher's variables, their precedence, defaults, and the
errors for environments that cannot be right. Every test passes its own env dict: nothing
here reads or changes the environment of the test run."""
import dataclasses
import warnings

import pytest

from loom.distributed._env import (DistEnv, discover, expand_nodelist, first_host,
                            parse_tasks_per_node)

TORCHRUN = {"RANK": "5", "WORLD_SIZE": "8", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "4",
            "MASTER_ADDR": "10.0.0.1", "MASTER_PORT": "1234"}
OMPI = {"OMPI_COMM_WORLD_RANK": "3", "OMPI_COMM_WORLD_SIZE": "4",
        "OMPI_COMM_WORLD_LOCAL_RANK": "1", "OMPI_COMM_WORLD_LOCAL_SIZE": "2"}
MPICH = {"PMI_RANK": "2", "PMI_SIZE": "6", "MPI_LOCALRANKID": "2", "MPI_LOCALNRANKS": "3"}
SLURM = {"SLURM_PROCID": "3", "SLURM_NTASKS": "6", "SLURM_LOCALID": "1",
         "SLURM_NTASKS_PER_NODE": "2(x3)", "SLURM_NODEID": "1",
         "SLURM_JOB_NODELIST": "node[07-09]"}


def test_single_process_defaults():
    d = discover({})
    assert d == DistEnv(0, 1, 0, 1, 0, "127.0.0.1", 29500, "single")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.rank = 1


def test_torchrun_style():
    d = discover(TORCHRUN)
    assert (d.rank, d.world_size, d.local_rank, d.local_world_size) == (5, 8, 1, 4)
    assert (d.node_rank, d.master_addr, d.master_port, d.source) == (1, "10.0.0.1", 1234, "env")


def test_node_rank_from_loom_launch_or_torchrun():
    assert discover({**TORCHRUN, "NODE_RANK": "1"}).node_rank == 1
    assert discover({**TORCHRUN, "GROUP_RANK": "1"}).node_rank == 1
    with pytest.raises(ValueError, match=r"^\[distributed\] NODE_RANK='9'"):
        discover({**TORCHRUN, "NODE_RANK": "9"})


def test_open_mpi():
    d = discover({**OMPI, "MASTER_ADDR": "h0"})
    assert (d.rank, d.world_size, d.local_rank, d.local_world_size, d.node_rank) == (3, 4, 1, 2, 1)
    assert (d.master_addr, d.master_port, d.source) == ("h0", 29500, "mpirun")


def test_mpich_and_intel_mpi():
    d = discover({**MPICH, "MASTER_ADDR": "h0"})
    assert (d.rank, d.world_size, d.local_rank, d.local_world_size) == (2, 6, 2, 3)
    assert (d.node_rank, d.master_addr, d.source) == (0, "h0", "mpirun")


def test_slurm():
    d = discover(SLURM)
    assert (d.rank, d.world_size, d.local_rank, d.local_world_size, d.node_rank) == (3, 6, 1, 2, 1)
    assert (d.master_addr, d.master_port, d.source) == ("node07", 29500, "slurm")


def test_slurm_uneven_tasks_per_node():
    env = {**SLURM, "SLURM_NTASKS_PER_NODE": "4,2", "SLURM_PROCID": "5", "SLURM_NODEID": "1"}
    assert discover(env).local_world_size == 2
    env["SLURM_NODEID"] = "0"
    env["SLURM_PROCID"] = "3"
    env["SLURM_LOCALID"] = "3"
    assert discover(env).local_world_size == 4
    # srun's step-level list wins over the job's request: it describes this very step
    assert discover({**SLURM, "SLURM_STEP_TASKS_PER_NODE": "3(x2)"}).local_world_size == 3
    assert discover({**SLURM, "SLURM_NTASKS_PER_NODE": "2"}).local_world_size == 2


def test_slurm_nodelist_fallback_and_master_override():
    env = {k: v for k, v in SLURM.items() if k != "SLURM_JOB_NODELIST"}
    assert discover({**env, "SLURM_NODELIST": "gpu5,gpu6"}).master_addr == "gpu5"
    d = discover({**SLURM, "MASTER_ADDR": "login1", "MASTER_PORT": "4000"})
    assert (d.master_addr, d.master_port) == ("login1", 4000)


@pytest.mark.parametrize("nodelist, hosts", [
    ("node[01-03,07],gpu5", ["node01", "node02", "node03", "node07", "gpu5"]),
    ("n[8-10]", ["n8", "n9", "n10"]),
    ("n[098-101]", ["n098", "n099", "n100", "n101"]),
    ("a,b,c", ["a", "b", "c"]),
    ("rack[1-2]-n[1-2]", ["rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"]),
    ("host-1.example.org", ["host-1.example.org"]),
])
def test_expand_nodelist(nodelist, hosts):
    assert expand_nodelist(nodelist) == hosts
    assert first_host(nodelist) == hosts[0]


@pytest.mark.parametrize("bad", ["node[01-03", "node01]", "n[a-b]", "n[5-3]", "", "n[]"])
def test_bad_nodelist(bad):
    with pytest.raises(ValueError, match=r"^\[distributed\] SLURM_JOB_NODELIST"):
        expand_nodelist(bad)


def test_bad_nodelist_from_env_names_variable():
    with pytest.raises(ValueError, match=r"^\[distributed\] SLURM_NODELIST="):
        discover({**OMPI, "SLURM_NODELIST": "n[1-"})


@pytest.mark.parametrize("text, counts", [
    ("4", [4]), ("4,2", [4, 2]), ("2(x3)", [2, 2, 2]), ("2(x3),1", [2, 2, 2, 1]),
])
def test_parse_tasks_per_node(text, counts):
    assert parse_tasks_per_node(text) == counts


@pytest.mark.parametrize("bad", ["", "x", "2(x)", "0", "2(3)"])
def test_bad_tasks_per_node(bad):
    with pytest.raises(ValueError, match=r"^\[distributed\] SLURM_NTASKS_PER_NODE"):
        discover({**SLURM, "SLURM_NTASKS_PER_NODE": bad + ","})


def test_precedence():
    everything = {**SLURM, **MPICH, **OMPI, **TORCHRUN}
    assert discover(everything).source == "env" and discover(everything).rank == 5
    no_env = {k: v for k, v in everything.items() if k not in TORCHRUN}
    assert discover(no_env).rank == 3 and discover(no_env).world_size == 4  # Open MPI
    no_ompi = {k: v for k, v in no_env.items() if k not in OMPI}
    assert discover(no_ompi).rank == 2 and discover(no_ompi).source == "mpirun"  # MPICH
    only_slurm = {k: v for k, v in no_ompi.items() if k not in MPICH}
    assert discover(only_slurm).source == "slurm"


def test_one_rank_needs_no_local_rank():
    d = discover({"RANK": "0", "WORLD_SIZE": "1"})
    assert (d.local_rank, d.local_world_size, d.source) == (0, 1, "env")
    d = discover({"SLURM_PROCID": "0", "SLURM_NTASKS": "1"})
    assert (d.local_rank, d.local_world_size, d.source) == (0, 1, "slurm")


def test_blank_master_port_means_default():
    assert discover({"MASTER_PORT": ""}).master_port == 29500


def test_several_machines_without_master_addr_warns():
    with pytest.warns(RuntimeWarning, match=r"MASTER_ADDR is not set"):
        assert discover(OMPI).master_addr == "127.0.0.1"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one machine: loopback is right, nothing to say
        discover({**OMPI, "OMPI_COMM_WORLD_LOCAL_SIZE": "4", "OMPI_COMM_WORLD_LOCAL_RANK": "3"})


@pytest.mark.parametrize("change, var", [
    ({"RANK": "x"}, "RANK"),
    ({"RANK": "1.0"}, "RANK"),
    ({"RANK": "-1"}, "RANK"),
    ({"RANK": "8"}, "RANK"),
    ({"WORLD_SIZE": "0"}, "WORLD_SIZE"),
    ({"WORLD_SIZE": None}, "WORLD_SIZE"),
    ({"RANK": None}, "RANK"),
    ({"LOCAL_RANK": None}, "LOCAL_RANK"),
    ({"LOCAL_RANK": "4"}, "LOCAL_RANK"),
    ({"LOCAL_RANK": "-2"}, "LOCAL_RANK"),
    ({"LOCAL_WORLD_SIZE": None}, "LOCAL_WORLD_SIZE"),
    ({"LOCAL_WORLD_SIZE": "9"}, "LOCAL_WORLD_SIZE"),
    ({"MASTER_PORT": "http"}, "MASTER_PORT"),
    ({"MASTER_PORT": "0"}, "MASTER_PORT"),
    ({"MASTER_PORT": "70000"}, "MASTER_PORT"),
])
def test_torchrun_style_errors(change, var):
    env = {**TORCHRUN, **change}
    env = {k: v for k, v in env.items() if v is not None}
    with pytest.raises(ValueError, match=rf"^\[distributed\] {var}\b"):
        discover(env)


@pytest.mark.parametrize("base, change, var", [
    (OMPI, {"OMPI_COMM_WORLD_RANK": "4"}, "OMPI_COMM_WORLD_RANK"),
    (OMPI, {"OMPI_COMM_WORLD_LOCAL_RANK": "two"}, "OMPI_COMM_WORLD_LOCAL_RANK"),
    (MPICH, {"MPI_LOCALRANKID": None}, "MPI_LOCALRANKID"),
    (MPICH, {"PMI_SIZE": None}, "PMI_SIZE"),
    (SLURM, {"SLURM_PROCID": "6"}, "SLURM_PROCID"),
    (SLURM, {"SLURM_LOCALID": None}, "SLURM_LOCALID"),
    (SLURM, {"SLURM_NTASKS": "-6"}, "SLURM_NTASKS"),
    (SLURM, {"SLURM_NODEID": "3"}, "SLURM_NODEID"),  # "2(x3)" has only nodes 0 to 2
    (SLURM, {"SLURM_NODEID": None, "SLURM_NTASKS_PER_NODE": "4,2"}, "SLURM_NODEID"),
    (SLURM, {"SLURM_NTASKS_PER_NODE": None}, "SLURM_NTASKS_PER_NODE"),
])
def test_launcher_errors_name_the_variable(base, change, var):
    env = {k: v for k, v in {**base, **change}.items() if v is not None}
    with pytest.raises(ValueError, match=rf"^\[distributed\] {var}\b"):
        discover(env)
