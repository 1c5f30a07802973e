"""Simulation on Dask: the summary (and balance's comparison) is the
in-process one for a local cluster (--jobs), a running scheduler
(--cluster) and any chunk size, and a worker killed mid-run loses
nothing: Dask runs its chunks again elsewhere."""

import json
import os
import signal
import types

import dask
import pytest
from dask.distributed import LocalCluster

from altar_host.sim import simulate as sim
from altar_host.cli import main

GAME = ("fantasmagoria", 3, ["heuristic", "random"])


def counts(workers=None, games=300, seed=5, **kw):
    return sim.simulate(*GAME[:2], GAME[2], games, seed, workers, **kw)[0]


@pytest.fixture(scope="module")
def alone():
    return counts()


def test_a_local_cluster_of_two_gives_the_in_process_summary(alone):
    with sim.Workers(jobs=2) as workers:
        assert workers.count() == 2
        assert counts(workers) == alone
        assert counts(workers) == alone          # the same chunks again: new tasks, same counts
        assert counts(workers, chunk=1, games=40) == counts(games=40)


def test_a_worker_killed_mid_run_loses_nothing(alone):
    killed = []
    with sim.Workers(jobs=2) as workers:
        pids = workers.client.run(os.getpid)

        def progress(done, total):
            if not killed:       # after the first chunk: most are still to run
                pid = sorted(pids.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append((pid, done))
        got = counts(workers, chunk=3, progress=progress)
        after = workers.client.run(os.getpid)
    assert killed and killed[0][1] < 300 // 2
    assert killed[0][0] not in after.values()        # that process is gone (Dask started another)
    assert got == alone


def test_the_command_line_on_jobs_and_on_a_running_scheduler(capsys):
    args = ["simulate", "--game", "fantasmagoria", "--players", "3",
            "--bots", "heuristic,random,heuristic", "--games", "120", "--seed", "2"]

    def run(*more):
        assert main(args + list(more)) == 0
        out = json.loads(capsys.readouterr().out)
        del out["games_per_second"]
        return out
    one = run()
    assert run("--jobs", "2") == one
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        assert run("--cluster", cluster.scheduler_address, "--chunk", "7") == one
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        assert main(args + ["--cluster", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the cluster" in capsys.readouterr().err


def test_ctrl_c_cancels_the_chunks_and_keeps_those_that_finished():
    def progress(done, total):
        raise KeyboardInterrupt          # as Ctrl-C arrives while chunks are out
    with sim.Workers(jobs=2) as workers:
        with pytest.raises(sim.Interrupted) as stop:
            counts(workers, chunk=3, progress=progress)
        assert 3 <= stop.value.counts["games"] < 300
    assert workers.client.status == "closed"


def test_balance_on_a_local_cluster_is_the_in_process_comparison():
    """Each chunk plays its seeds under every option set and pairs them
    there; the paired counts merge to the in-process result."""
    args = types.SimpleNamespace(game="sete-selos", players=2, bots="heuristic", games=60,
                                 seed=3, first="random", set=["", "banished_cultists=5"])
    with sim.Workers(jobs=2) as workers:
        assert sim.balance(args, workers) == sim.balance(args, sim.Workers())
