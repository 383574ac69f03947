"""Competing busy processes, for timing the benchmark on a machine whose every
core is kept busy by other work (`python -m spatial_hash.bench --contended`)."""
import contextlib
import multiprocessing
import os
import signal
import time


def spin(stop, ready, parent_pid):
    """Keep one core at 100% with plain arithmetic until `stop` is set."""
    # Ctrl-C reaches the whole process group; the parent stops this process.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ready.release()
    x = 0
    # Checking for the parent too, so that a killed benchmark leaves no spinner behind.
    while not stop.is_set() and os.getppid() == parent_pid:
        for _ in range(100_000):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF


@contextlib.contextmanager
def busy_processes(count, start_timeout=60.0):
    """Run `count` spinning processes for the body of the with block, already
    spinning when it starts, and stop and join them however it ends (an error,
    Ctrl-C). Yields the processes."""
    spawn = multiprocessing.get_context("spawn")
    stop, ready = spawn.Event(), spawn.Semaphore(0)
    workers = [spawn.Process(target=spin, args=(stop, ready, os.getpid()), name=f"busy-{k}", daemon=True)
               for k in range(count)]
    try:
        for worker in workers:
            worker.start()
        deadline = time.monotonic() + start_timeout
        spinning = 0
        while spinning < count:
            if ready.acquire(timeout=0.1):
                spinning += 1
            elif any(worker.exitcode is not None for worker in workers):
                raise RuntimeError("a busy process died while starting (see its error above)")
            elif time.monotonic() > deadline:
                raise RuntimeError(f"the busy processes did not start within {start_timeout:g} s")
        yield workers
    finally:
        stop.set()
        for worker in workers:
            if worker.pid is None:      # never started
                continue
            worker.join(timeout=5.0)
            if worker.is_alive():
                worker.terminate()
                worker.join()
