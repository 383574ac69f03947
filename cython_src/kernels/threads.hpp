// Running one job on several threads, with no runtime beyond the C++ standard
// library (so a wheel linked against a static libc++ keeps its threads).
// Threads are started for each job and joined before it returns: nothing
// outlives a call, so a process that forks, or an interpreter that exits,
// finds no thread of ours.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
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

// What a loop of the Cython core does with items first .. end-1, given its
// context; returns a count that for_each_chunk sums.
typedef std::ptrdiff_t (*ChunkWork)(void* context, std::ptrdiff_t first, std::ptrdiff_t end);

// work(context, first, end) over items 0 .. n-1, `chunk` items at a time, the
// chunks taken in turn by up to `threads` threads (a thread that waits for a
// core holds back only its chunk); returns the sum of what the calls
// returned. work must not throw.
inline std::ptrdiff_t for_each_chunk(int threads, std::ptrdiff_t n, std::ptrdiff_t chunk,
                                     ChunkWork work, void* context) noexcept {
    std::atomic<std::ptrdiff_t> next(0), total(0);
    const std::ptrdiff_t chunks = (n + chunk - 1) / chunk;
    in_parallel(int(std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(threads, chunks))), [&](int) {
        std::ptrdiff_t sum = 0;
        for (std::ptrdiff_t k; (k = next.fetch_add(chunk)) < n;) sum += work(context, k, std::min(n, k + chunk));
        total += sum;
    });
    return total;
}

}  // namespace spatial_hash
