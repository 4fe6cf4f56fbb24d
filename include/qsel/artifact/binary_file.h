// Reading files strangers hand us — GGUF and safetensors headers, config.json —
// with every read bounded: the file must be a regular file (symlinks followed,
// FIFOs and devices refused), text is read up to a cap, and binary headers are
// read through a cursor that checks each length against what is left of the
// file before anything is allocated. Errors are UsageErrors (exit 2) shaped
// "path: byte N: what was expected".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "qsel/core/text_file.h"

namespace qsel {

// Bytes a header is read from: a local file, or a file on a server read by
// HTTP Range (model/remote_file.h). `path` names it in messages.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual const std::string& path() const = 0;
  virtual std::uint64_t size() const = 0;
  // Copies `n` bytes at `offset` into `out`; false when the file ends first.
  // A remote source may throw UsageError (the network, its byte budget).
  virtual bool read_at(std::uint64_t offset, void* out, std::size_t n) const = 0;
};

// A binary file opened for header reading. Not copyable; closes on destruction.
class BinaryFile final : public ByteSource {
 public:
  explicit BinaryFile(const std::string& path);
  ~BinaryFile() override;
  BinaryFile(const BinaryFile&) = delete;
  BinaryFile& operator=(const BinaryFile&) = delete;

  const std::string& path() const override { return path_; }
  std::uint64_t size() const override { return size_; }
  bool read_at(std::uint64_t offset, void* out, std::size_t n) const override;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// Sequential little-endian reads with a 64 KiB window. Each read names what it
// expected, so a short file fails as "path: byte 24: expected the tensor count
// (8 bytes), the file ends at byte 20".
class Cursor {
 public:
  Cursor(const ByteSource& f, std::uint64_t offset = 0) : f_(f), pos_(offset) {}

  std::uint64_t offset() const { return pos_; }
  std::uint64_t left() const { return pos_ >= f_.size() ? 0 : f_.size() - pos_; }
  std::uint8_t u8(std::string_view what);
  std::uint32_t u32(std::string_view what);
  std::uint64_t u64(std::string_view what);
  // `n` bytes as a string; fails unless n <= max and n <= left().
  std::string bytes(std::uint64_t n, std::uint64_t max, std::string_view what);
  // The first `keep` of `n` bytes as a string, the rest skipped unread (a 1 GiB
  // string costs what its kept head costs); the same checks on `n` as bytes().
  std::string head(std::uint64_t n, std::uint64_t keep, std::uint64_t max, std::string_view what);
  // Skips `n` bytes; fails unless n <= left().
  void skip(std::uint64_t n, std::string_view what);
  void seek(std::uint64_t offset) { pos_ = offset; }

  // "path: byte N: message" as a UsageError, N the cursor's offset (or `at`).
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(std::uint64_t at, const std::string& message) const;

 private:
  void fill(std::uint64_t n, std::string_view what);
  void check_length(std::uint64_t n, std::uint64_t max, std::string_view what) const;
  const ByteSource& f_;
  std::uint64_t pos_;
  std::string window_;
  std::uint64_t window_start_ = 0;
};

}  // namespace qsel
