// Running one job on several threads, with no runtime beyond the C++ standard
// library (so a wheel linked against a static libc++ keeps its threads).
// Threads are started for each job and joined before it returns: nothing
// outlives a call, so a process that forks, or an interpreter that exits,
// finds no thread of ours.
#pragma once
#include <system_error>
#include <thread>
#include <vector>

namespace spatial_hash {

// job(w) for w = 0 .. workers-1, each on a thread of its own (w = 0 on the
// caller's); returns once all have. Where a thread cannot be started, its
// share is left to the others: a job must take its work from a shared
// counter, not by its number. job must not throw.
template <class Job>
void in_parallel(int workers, const Job& job) {
    std::vector<std::thread> helpers;
    for (int w = 1; w < workers; ++w) {
        try {
            helpers.emplace_back(job, w);
        } catch (const std::system_error&) {
            break;
        }
    }
    job(0);
    for (std::thread& t : helpers) t.join();
}

}  // namespace spatial_hash
