// The budget for one model read: bytes actually read over every file, and the
// wall-clock time, whatever the headers declare.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <thread>

#include "qsel/artifact/binary_file.h"
#include "qsel/artifact/checkpoint.h"
#include "qsel/artifact/read_budget.h"
#include "qsel/core/errors.h"
#include "support/artifact_writer.h"
#include "support/fixtures.h"

using namespace qsel;
using test::le32;
using test::le64;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// A file that answers every read after `delay` (a slow network share).
class SlowSource final : public ByteSource {
 public:
  SlowSource(std::string bytes, std::chrono::milliseconds delay) : bytes_(std::move(bytes)), delay_(delay) {}
  const std::string& path() const override { return path_; }
  std::uint64_t size() const override { return bytes_.size(); }
  bool read_at(std::uint64_t offset, void* out, std::size_t n) const override {
    std::this_thread::sleep_for(delay_);
    if (offset > bytes_.size() || n > bytes_.size() - offset) return false;
    std::copy_n(bytes_.data() + offset, n, static_cast<char*>(out));
    return true;
  }

 private:
  std::string path_ = "slow.gguf";
  std::string bytes_;
  std::chrono::milliseconds delay_;
};

}  // namespace

TEST_CASE("read_budget: bytes past the limit are refused before they are read, naming the file", "[artifact][read_budget]") {
  ReadBudget b({1000, std::chrono::milliseconds(60000)});
  b.spend(600, "a.safetensors");
  b.spend(400, "a.safetensors");
  CHECK(b.bytes_read() == 1000);
  CHECK(error_of([&] { b.spend(1, "b.safetensors"); }).starts_with("b.safetensors: reading this model's headers would pass 0 MiB of reads"));
  CHECK(b.bytes_read() == 1000);
}

TEST_CASE("read_budget: a sparse GGUF whose 10,000 strings sit 100 KB apart stops at 512 MiB of reads", "[artifact][read_budget]") {
  // Each string's length sits outside the last 64 KiB window, so each costs a
  // window: 10,000 of them would read 655 MB for 10,000 8-byte lengths.
  test::TempDir d;
  const std::uint64_t n = 10000, length = 100000;
  std::string head = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("tokenizer.ggml.merges") + le32(9) + le32(8) + le64(n);
  auto path = d.path() / "spaced.gguf";
  {
    std::ofstream f(path, std::ios::binary);
    f << head;
    for (std::uint64_t i = 0; i < n; ++i) {
      f.seekp(static_cast<std::streamoff>(head.size() + i * (8 + length)));
      f << le64(length);
    }
    f.seekp(static_cast<std::streamoff>(head.size() + n * (8 + length) + 64));
    f << '\0';
  }
  auto started = std::chrono::steady_clock::now();
  std::string e = error_of([&] { read_checkpoint(path.string()); });
  CHECK(e.starts_with(path.string() + ": reading this model's headers would pass 512 MiB of reads"));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("read_budget: a read that takes longer than its time limit stops at the next read, naming the file", "[artifact][read_budget]") {
  // A split GGUF on a share that answers each read in 60 ms, read with a 100 ms limit:
  // each part is one read, and the third part's is past the limit.
  auto part = [](const std::string& tensor) {
    test::GgufWriter w;
    w.str("general.architecture", "llama");
    w.tensor(tensor, {32}, 0, 1, 4);
    return w.bytes();
  };
  std::string bytes = part("token_embd.weight");
  SlowSource a(bytes, std::chrono::milliseconds(60)), b(part("output.weight"), std::chrono::milliseconds(60)),
      c(part("output_norm.weight"), std::chrono::milliseconds(60));
  std::string e = error_of([&] { read_gguf_checkpoint({&a, &b, &c}, {512ull << 20, std::chrono::milliseconds(100)}); });
  CHECK(e == "slow.gguf: reading this model's headers has taken more than 0.1 s; qsel stops there (a local checkpoint's headers read in "
             "well under a second)");
  // The same files with the default limits are read.
  SlowSource fast(bytes, std::chrono::milliseconds(0));
  CHECK(read_gguf_checkpoint({&fast}).tensors.size() == 1);
}
