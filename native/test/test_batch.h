// A write batch in RocksDB's format (pr_db_write), built byte by byte as
// the Java layer builds it, for the native tests.
#pragma once

#include <cstdint>
#include <string>

namespace pinrock_test {

inline const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

class Batch {
 public:
  Batch() : rep_(12, '\0') {}
  Batch& Put(const std::string& key, const std::string& value) {
    return Record(0x1).Bytes(key).Bytes(value).Counted();
  }
  Batch& Delete(const std::string& key) { return Record(0x0).Bytes(key).Counted(); }
  Batch& SingleDelete(const std::string& key) { return Record(0x7).Bytes(key).Counted(); }
  Batch& DeleteRange(const std::string& begin, const std::string& end) {
    return Record(0xF).Bytes(begin).Bytes(end).Counted();
  }
  Batch& Merge(const std::string& key, const std::string& value) {
    return Record(0x2).Bytes(key).Bytes(value).Counted();
  }
  Batch& PutInFamily(uint32_t family, const std::string& key, const std::string& value) {
    return Record(0x5).Varint(family).Bytes(key).Bytes(value).Counted();
  }
  Batch& MergeInFamily(uint32_t family, const std::string& key, const std::string& value) {
    return Record(0x6).Varint(family).Bytes(key).Bytes(value).Counted();
  }
  // Overwrites the record count in the header.
  Batch& SetCount(uint32_t count) {
    for (int i = 0; i < 4; i++) rep_[8 + i] = static_cast<char>(count >> (8 * i));
    return *this;
  }
  const uint8_t* data() const { return bytes(rep_); }
  size_t size() const { return rep_.size(); }
  std::string& rep() { return rep_; }

 private:
  Batch& Record(char tag) {
    rep_.push_back(tag);
    return *this;
  }
  Batch& Varint(uint32_t v) {
    while (v >= 0x80) {
      rep_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    rep_.push_back(static_cast<char>(v));
    return *this;
  }
  Batch& Bytes(const std::string& b) {
    Varint(static_cast<uint32_t>(b.size()));
    rep_ += b;
    return *this;
  }
  Batch& Counted() { return SetCount(++count_); }
  std::string rep_;
  uint32_t count_ = 0;
};

}  // namespace pinrock_test
