// Running one job on several threads, with no runtime beyond the C++ standard
// library (so a wheel linked against a static libc++ keeps its threads).
// Helpers are started for each job. A job takes its work from a shared
// counter, so the caller's own share can grow to all of it: the caller waits
// only for helpers that began work, never for one that the system has not
// yet run (on cores busy with other work, that wait was most of what threads
// cost). A helper that starts after the job is done returns without touching
// it.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "check.hpp"

namespace spatial_hash {

// Loops over fewer items than this run on the caller's thread alone: starting
// a helper costs more than it would take over.
constexpr std::ptrdiff_t PARALLEL_WORK = 16384;

// Whether a job still takes helpers, and how many are at work on it. Shared
// by the caller and its helpers, it outlives whichever ends last.
struct JobGate {
    std::mutex lock;
    std::condition_variable idle;
    int working = 0;
    int entered = 0;
    bool closed = false;

    bool enter() {
        std::lock_guard<std::mutex> held(lock);
        if (closed) return false;
        ++working;
        ++entered;
        return true;
    }
    void leave() {
        std::lock_guard<std::mutex> held(lock);
        if (--working == 0) idle.notify_all();
    }
    // No helper enters after this; returns once those that entered have
    // left, and how many entered.
    int close() {
        std::unique_lock<std::mutex> held(lock);
        closed = true;
        idle.wait(held, [this] { return working == 0; });
        return entered;
    }
};

// When every helper of a job started too late to take part (the cores are
// busy with other work), starting them cost the caller time for nothing: the
// next jobs run on the caller's thread alone, twice as many each time it
// happens again (up to MAX_ALONE), until a job whose helpers take part.
// Process-wide, as the cores' load is.
struct Backoff {
    static constexpr int MAX_ALONE = 64;
    std::atomic<int> alone{0};      // jobs still to run alone
    std::atomic<int> next{1};       // how many after the next job without helpers

    bool take_alone() {
        int left = alone.load(std::memory_order_relaxed);
        while (left > 0)
            if (alone.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) return true;
        return false;
    }
    void helpers_late() {
        const int n = next.load(std::memory_order_relaxed);
        alone.store(n, std::memory_order_relaxed);
        next.store(n < MAX_ALONE ? 2 * n : MAX_ALONE, std::memory_order_relaxed);
    }
    void helpers_on_time() { next.store(1, std::memory_order_relaxed); }
};
inline Backoff backoff;

// job(w) for w = 0 .. workers-1, w = 0 on the caller's thread and each other
// on a helper of its own, where the helper starts before the caller is done;
// returns once every job(w) that began has returned. job must take its work
// from a shared counter, not by its number, and must not throw.
template <class Job>
void in_parallel(int workers, const Job& job) {
    if (workers > 1 && backoff.take_alone()) workers = 1;
    std::shared_ptr<JobGate> gate;
    for (int w = 1; w < workers; ++w) {
        try {
            if (!gate) gate = std::make_shared<JobGate>();
            std::thread([gate, &job, w] {
                if (!gate->enter()) return;
                job(w);
                gate->leave();
            }).detach();
        } catch (const std::exception&) {       // no thread (or no memory): fewer helpers
            break;
        }
    }
    job(0);
    if (gate) {
        if (gate->close() == 0) backoff.helpers_late();
        else backoff.helpers_on_time();
    }
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
    SH_EXPECT(n >= 0 && chunk > 0 && work != nullptr);
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
