// What reading one model may cost, whatever its files declare: the bytes
// actually read from every shard and GGUF part together, and the wall-clock
// time. The byte and count caps in the readers bound each header; this bounds
// the whole read (a sparse file whose strings sit 64 KiB apart, a slow network
// share, thousands of shards). A reader sees it as a ByteSource that wraps the
// file, so neither reader needs to know about it.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "qsel/artifact/binary_file.h"

namespace qsel {

struct ReadLimits {
  // A local checkpoint's headers read in well under a second (DeepSeek-V3's 163
  // shards: 25 MB of headers); a file on the Hub pays a round trip per request.
  std::uint64_t bytes = 512ull << 20;
  std::chrono::milliseconds time{20000};
  // Shards of one checkpoint: each is a request or two over the network, so an index
  // naming 3,000 is refused before the first is asked for (the largest real ones have ~200).
  std::size_t shards = 4096;
  bool network = false;

  static ReadLimits local() { return {}; }
  static ReadLimits remote() { return {512ull << 20, std::chrono::milliseconds(180000), 1024, true}; }
};

class ReadBudget {
 public:
  explicit ReadBudget(ReadLimits limits = {});
  // Counts `bytes` about to be read from `file`; a UsageError naming the file
  // once the bytes or the time pass the limits.
  void spend(std::uint64_t bytes, const std::string& file);
  std::uint64_t bytes_read() const { return read_; }

 private:
  ReadLimits limits_;
  std::chrono::steady_clock::time_point started_;
  std::uint64_t read_ = 0;
};

// `inner` read through `budget`; both must outlive it.
class BudgetedSource final : public ByteSource {
 public:
  BudgetedSource(const ByteSource& inner, ReadBudget& budget) : inner_(inner), budget_(budget) {}
  const std::string& path() const override { return inner_.path(); }
  std::uint64_t size() const override { return inner_.size(); }
  bool read_at(std::uint64_t offset, void* out, std::size_t n) const override {
    budget_.spend(n, inner_.path());
    return inner_.read_at(offset, out, n);
  }

 private:
  const ByteSource& inner_;
  ReadBudget& budget_;
};

}  // namespace qsel
