// An index's busy flag, held for a whole call: set by hold() and cleared when
// the Claim goes out of scope, however the call ends (a return, or a Python
// exception, which Cython passes on by returning).
#pragma once

namespace spatial_hash {

class Claim {
  public:
    Claim() = default;
    Claim(const Claim&) = delete;
    Claim& operator=(const Claim&) = delete;
    ~Claim() {
        if (busy_) *busy_ = 0;
    }
    void hold(int* busy) noexcept {
        busy_ = busy;
        *busy = 1;
    }

  private:
    int* busy_ = nullptr;
};

}  // namespace spatial_hash
