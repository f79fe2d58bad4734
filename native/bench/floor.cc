// The native floor: the operations of the Java benchmarks (jmh-benchmarks),
// timed in C++ directly on the RocksDB C++ API, with the same data, options
// and key order, so that a binding's boundary overhead is its time minus this
// one. The data and key order must agree with Keys.java and Picker.java.
// Prints one RESULT line on stdout; errors go to stderr with exit code 1
// (2 for usage errors).
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <unistd.h>

#include "scan_copy.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: pinrock_floor --db PATH\n"
    "                     --op get|get-absent|get-to-file|get-copy-to-file|put|put-without-log\n"
    "                          |delete|batch-put|multi-get|multi-get-families|scan|scan-batches\n"
    "                          |scan-views\n"
    "                     --location sst|memtable|flushing\n"
    "                     --key-bytes N --value-bytes N --keys N\n"
    "                     --order random|sequential|zipfian\n"
    "                     [--threads N (1)] [--seconds S (3)] [--warmup-seconds S (S / 3)]\n"
    "                     [--block-cache-bytes B (1073741824)]\n"
    "                     [--write-buffer-bytes B (2147483648)]\n"
    "                     [--compression none|zstd (none)] [--values pattern|fields (pattern)]\n"
    "get, get-absent, multi-get and the scans read an existing database (sst) or\n"
    "one they fill first (memtable); writes and memtable reads create --db, which\n"
    "must not exist. batch-put writes 1000 entries per operation, multi-get reads\n"
    "100 keys per operation (multi-get-families, from the memtable only: every\n"
    "second key from a second column family holding the same keys), scan reads\n"
    "every entry once per operation\n"
    "(scan-batches copying batches of entries as pinrock's cursor does,\n"
    "scan-views reading batches of views of blocks kept pinned instead),\n"
    "get-to-file writes each value it gets at offset 0 of a temporary file\n"
    "(get-copy-to-file copies it into a buffer first, as a copying binding does).\n"
    "zipfian is YCSB's scrambled zipfian key choice (constant 0.99). flushing is\n"
    "for writes: it names a --write-buffer-bytes small enough to flush and\n"
    "compact during the run. Values are a repeating pattern, or with fields\n"
    "(--value-bytes 1024) records of ten 100-byte fields of YCSB-like text.\n";

constexpr size_t kMinKeyBytes = 16;  // "key-" and 12 digits
// A record (--values fields), as Keys.RECORD_BYTES: a header, then the fields.
constexpr size_t kFields = 10;
constexpr size_t kFieldBytes = 100;
constexpr size_t kRecordHeaderBytes = 24;
constexpr size_t kRecordBytes = kRecordHeaderBytes + kFields * kFieldBytes;
constexpr int kBatch = 256;          // point operations between clock checks
constexpr int kBatchPuts = 1000;     // puts per batch-put, as PinrockBenchmark.BATCH_PUTS
constexpr int kMultiGetKeys = 100;   // keys per multi-get, as Picker.MULTI_GET_KEYS

// The batch buffer of a pinrock cursor (NativeCursor.INITIAL_BATCH_BYTES).
constexpr size_t kScanBatchBytes = 64 * 1024;

enum class Order { kRandom, kSequential, kZipfian };

enum class Op {
  kGet, kGetAbsent, kGetToFile, kGetCopyToFile, kPut, kDelete, kBatchPut, kMultiGet,
  kMultiGetFamilies, kScan, kScanBatches, kScanViews
};

constexpr bool is_scan(Op op) {
  return op == Op::kScan || op == Op::kScanBatches || op == Op::kScanViews;
}

constexpr bool is_read(Op op) {
  return op == Op::kGet || op == Op::kGetAbsent || op == Op::kGetToFile ||
         op == Op::kGetCopyToFile || op == Op::kMultiGet || op == Op::kMultiGetFamilies ||
         is_scan(op);
}

// Operations between clock checks: many point operations, one of the others.
constexpr int operations_per_check(Op op) {
  return op == Op::kBatchPut || op == Op::kMultiGet || op == Op::kMultiGetFamilies || is_scan(op)
             ? 1
             : kBatch;
}

struct Config {
  std::string db;
  std::string op_name;
  Op op;
  bool memtable;
  size_t key_bytes;
  size_t value_bytes;
  uint64_t keys;
  Order order;
  int threads;
  double seconds;         // measured
  double warmup_seconds;  // run before the measurement, as JMH's warm-up iterations
  uint64_t block_cache_bytes;
  uint64_t write_buffer_bytes;
  bool zstd;    // else no compression
  bool fields;  // records, else the pattern values
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "pinrock_floor: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "pinrock_floor: %s\n", message.c_str());
  std::exit(1);
}

template <typename T>
T parse_number(const std::string& name, const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) usage_error("--" + name + ": not a number: '" + text + "'");
  return value;
}

Config parse_args(int argc, char** argv) {
  // Every option, with its default; nullopt marks a required one.
  std::map<std::string, std::optional<std::string>> args = {
      {"db", std::nullopt},          {"op", std::nullopt},
      {"location", std::nullopt},    {"key-bytes", std::nullopt},
      {"value-bytes", std::nullopt}, {"keys", std::nullopt},
      {"order", std::nullopt},       {"threads", "1"},
      {"seconds", "3"},              {"warmup-seconds", ""},
      {"block-cache-bytes", "1073741824"},
      {"write-buffer-bytes", "2147483648"},
      {"compression", "none"},       {"values", "pattern"},
  };
  for (int i = 1; i < argc; i += 2) {
    std::string flag = argv[i];
    auto it = flag.rfind("--", 0) == 0 ? args.find(flag.substr(2)) : args.end();
    if (it == args.end()) usage_error("unknown option '" + flag + "'");
    if (i + 1 == argc) usage_error(flag + " needs a value");
    it->second = argv[i + 1];
  }
  for (const auto& [name, value] : args) {
    if (!value) usage_error("--" + name + " is required");
  }
  auto arg = [&](const std::string& name) { return *args.at(name); };

  static const std::map<std::string, Op> kOps = {
      {"get", Op::kGet},         {"get-absent", Op::kGetAbsent}, {"get-to-file", Op::kGetToFile},
      {"get-copy-to-file", Op::kGetCopyToFile},
      {"put", Op::kPut},         {"put-without-log", Op::kPut},
      {"delete", Op::kDelete},   {"batch-put", Op::kBatchPut},   {"multi-get", Op::kMultiGet},
      {"multi-get-families", Op::kMultiGetFamilies},
      {"scan", Op::kScan},       {"scan-batches", Op::kScanBatches},
      {"scan-views", Op::kScanViews}};
  Config config;
  config.db = arg("db");
  config.op_name = arg("op");
  auto op = kOps.find(config.op_name);
  if (op == kOps.end()) {
    usage_error(
        "--op must be get, get-absent, get-to-file, get-copy-to-file, put, put-without-log, delete, "
        "batch-put, multi-get, multi-get-families, scan, scan-batches or scan-views");
  }
  config.op = op->second;
  if (arg("location") != "sst" && arg("location") != "memtable" && arg("location") != "flushing") {
    usage_error("--location must be sst, memtable or flushing");
  }
  if (is_read(config.op) && arg("location") == "flushing") {
    usage_error("--location flushing is for writes; " + config.op_name + " reads sst or memtable");
  }
  config.memtable = arg("location") == "memtable";
  if (config.op == Op::kMultiGetFamilies && !config.memtable) {
    usage_error("--op multi-get-families reads the memtable only: --location memtable");
  }
  if (arg("compression") != "none" && arg("compression") != "zstd") {
    usage_error("--compression must be none or zstd");
  }
  config.zstd = arg("compression") == "zstd";
  if (arg("values") != "pattern" && arg("values") != "fields") {
    usage_error("--values must be pattern or fields");
  }
  config.fields = arg("values") == "fields";
  static const std::map<std::string, Order> kOrders = {
      {"random", Order::kRandom}, {"sequential", Order::kSequential}, {"zipfian", Order::kZipfian}};
  auto order = kOrders.find(arg("order"));
  if (order == kOrders.end()) usage_error("--order must be random, sequential or zipfian");
  config.order = order->second;
  config.key_bytes = parse_number<size_t>("key-bytes", arg("key-bytes"));
  config.value_bytes = parse_number<size_t>("value-bytes", arg("value-bytes"));
  config.keys = parse_number<uint64_t>("keys", arg("keys"));
  config.threads = parse_number<int>("threads", arg("threads"));
  config.seconds = parse_number<double>("seconds", arg("seconds"));
  config.warmup_seconds = arg("warmup-seconds").empty()
                              ? config.seconds / 3
                              : parse_number<double>("warmup-seconds", arg("warmup-seconds"));
  config.block_cache_bytes = parse_number<uint64_t>("block-cache-bytes", arg("block-cache-bytes"));
  config.write_buffer_bytes =
      parse_number<uint64_t>("write-buffer-bytes", arg("write-buffer-bytes"));
  if (config.key_bytes < kMinKeyBytes) usage_error("--key-bytes must be at least 16");
  if (config.fields && (config.value_bytes != kRecordBytes || is_read(config.op))) {
    usage_error("--values fields writes records: --value-bytes " + std::to_string(kRecordBytes) +
                ", and an operation that writes");
  }
  // The Java side indexes keys and values with an int.
  if (config.keys < 1 || config.keys > INT32_MAX) usage_error("--keys must be in [1, 2^31)");
  if (config.threads < 1) usage_error("--threads must be at least 1");
  if (!(config.seconds > 0) || !std::isfinite(config.seconds)) {
    usage_error("--seconds must be positive");
  }
  if (!(config.warmup_seconds >= 0) || !std::isfinite(config.warmup_seconds)) {
    usage_error("--warmup-seconds must not be negative");
  }
  if (config.write_buffer_bytes < 1) usage_error("--write-buffer-bytes must be positive");
  return config;
}

// Key number index: "key-", index as 12 digits, then the 'x' padding that
// init_key wrote.
void fill_key(std::string* key, uint64_t index) {
  for (size_t pos = kMinKeyBytes; pos-- > 4;) {
    (*key)[pos] = static_cast<char>('0' + index % 10);
    index /= 10;
  }
}

std::string init_key(size_t key_bytes) {
  std::string key(key_bytes, 'x');
  std::memcpy(key.data(), "key-", 4);
  return key;
}

// Value number index: byte j is (byte) (index * 31 + j % 10) in Java's
// wrapping int arithmetic; unsigned 32-bit arithmetic gives the same low byte.
void fill_value(std::string* value, uint64_t index) {
  uint32_t base = static_cast<uint32_t>(index) * 31u;
  for (size_t j = 0; j < value->size(); j++) {
    (*value)[j] = static_cast<char>(static_cast<uint8_t>(base + static_cast<uint32_t>(j % 10)));
  }
}

uint64_t splitmix64(uint64_t state) {
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Record number index, as Keys.fillRecord writes it (which says why): a
// header of twelve little-endian 16-bit words (10 fields, ten lengths of
// 100, version 1), then ten fields of characters made as YCSB's
// RandomByteIterator makes them, six from each 32-bit number of a
// splitmix64 stream seeded with the index (low half of each output first).
void fill_record(std::string* value, uint64_t index) {
  static constexpr int kShifts[6] = {0, 5, 10, 15, 20, 25};
  static constexpr uint32_t kMasks[6] = {31, 63, 95, 31, 63, 95};
  char* out = value->data();
  for (size_t word = 0; word < kRecordHeaderBytes / 2; word++) {
    size_t header = word == 0 ? kFields : word <= kFields ? kFieldBytes : 1;
    out[2 * word] = static_cast<char>(header & 0xFF);
    out[2 * word + 1] = static_cast<char>(header >> 8);
  }
  uint64_t state = index;
  uint64_t random = 0;
  unsigned numbers = 0;
  for (size_t field = 0; field < kFields; field++) {
    char* start = out + kRecordHeaderBytes + field * kFieldBytes;
    for (size_t at = 0; at < kFieldBytes; at += 6) {
      if ((numbers & 1) == 0) {
        state += 0x9E3779B97F4A7C15ULL;
        random = splitmix64(state);
      }
      uint32_t number = static_cast<uint32_t>(random >> (32 * (numbers++ & 1)));
      for (size_t k = 0; k < 6 && at + k < kFieldBytes; k++) {
        start[at + k] = static_cast<char>(' ' + ((number >> kShifts[k]) & kMasks[k]));
      }
    }
  }
}

// The value a put of key number index writes: a record, or the pattern.
void fill_entry(const Config& config, std::string* value, uint64_t index) {
  if (config.fields) {
    fill_record(value, index);
  } else {
    fill_value(value, index);
  }
}

// Reads every byte of a value as Keys.checksum does: the xor of its 8-byte
// words (little-endian on the platforms pinrock supports), folded with the
// tail bytes, read as the top bytes of the value's last 8 bytes.
uint64_t checksum(const char* data, size_t length) {
  uint64_t sum = 0;
  size_t words_end = length & ~size_t{7};
  for (size_t offset = 0; offset < words_end; offset += 8) {
    uint64_t word;
    std::memcpy(&word, data + offset, sizeof word);
    sum ^= word;
  }
  size_t tail = length & 7;
  if (tail == 0) return sum;
  if (length >= 8) {
    uint64_t last;
    std::memcpy(&last, data + length - 8, sizeof last);
    return sum ^ (last >> (64 - 8 * tail));
  }
  for (size_t k = 0; k < tail; k++) {
    sum ^= uint64_t{static_cast<uint8_t>(data[words_end + k])} << (8 * k);
  }
  return sum;
}

// YCSB's scrambled zipfian key choice (ScrambledZipfianGenerator, constant
// 0.99), as Zipfian.java makes it, which says why: an item of 10^10 drawn
// by YCSB's ZipfianGenerator from a uniform double, its FNV-1a hash, the
// hash's absolute value modulo the key count. The constants are the same
// exact doubles as Zipfian.java's; the build turns off floating-point
// contraction for this file (CMakeLists.txt), so that eta * u - eta + 1 is
// rounded after each operation, as in Java, not fused into an FMA.
namespace zipfian {

constexpr double kItems = 10000000001.0;
constexpr double kZetan = 0x1.a78123b738f4cp4;  // 26.46902820178302
constexpr double kAlpha = 0x1.8fffffffffffap6;
constexpr double kEta = 0x1.b295ee6b6193ap-3;
constexpr double kSecondItem = 0x1.80e3eb6202786p0;

// ZipfianGenerator.nextLong for a uniform u in [0, 1); never negative.
uint64_t item(double u) {
  double uz = u * kZetan;
  if (uz < 1.0) return 0;
  if (uz < kSecondItem) return 1;
  return static_cast<uint64_t>(kItems * std::pow(kEta * u - kEta + 1, kAlpha));
}

// YCSB's Utils.fnvhash64 before its Math.abs: FNV-1a over 8 bytes, low first.
uint64_t fnv_hash64(uint64_t value) {
  uint64_t hash = 0xCBF29CE484222325ULL;
  for (int i = 0; i < 8; i++) {
    hash ^= value & 0xFF;
    hash *= 1099511628211ULL;
    value >>= 8;
  }
  return hash;
}

uint64_t index(uint64_t random, uint64_t keys) {
  uint64_t hash = fnv_hash64(item(static_cast<double>(random >> 11) * 0x1p-53));
  // Java's Math.abs of the hash as a signed number, then an unsigned remainder.
  uint64_t magnitude = static_cast<int64_t>(hash) < 0 ? 0 - hash : hash;
  return magnitude % keys;
}

}  // namespace zipfian

// The key order of one thread, as Picker.nextIndex: random with a xorshift64*
// seeded per thread, zipfian from the same random numbers, or sequential from
// the thread's share of the key space.
class Picker {
 public:
  Picker(int thread, int threads, uint64_t keys, Order order)
      : state_(0x9E3779B97F4A7C15ULL * (static_cast<uint64_t>(thread) + 1)),
        next_(static_cast<uint64_t>(thread) * keys / static_cast<uint64_t>(threads)),
        keys_(keys),
        order_(order) {}

  uint64_t next() {
    if (order_ == Order::kRandom) return next_random() % keys_;
    if (order_ == Order::kZipfian) return zipfian::index(next_random(), keys_);
    uint64_t index = next_;
    next_ = next_ + 1 == keys_ ? 0 : next_ + 1;
    return index;
  }

 private:
  uint64_t next_random() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }

  uint64_t state_;
  uint64_t next_;
  uint64_t keys_;
  Order order_;
};

struct ThreadResult {
  Clock::time_point start;  // first clock check after the warm-up
  Clock::time_point end;    // first clock check after the measurement
  uint64_t operations = 0;  // between start and end
  uint64_t failures = 0;    // over the whole run, warm-up included
  std::string first_failure;
  uint64_t checksum = 0;
};

struct Bench {
  Config config;
  rocksdb::DB* db;
  // multi-get-families' second column family, holding the same keys as the default one.
  rocksdb::ColumnFamilyHandle* second = nullptr;
  rocksdb::ReadOptions read_options;
  rocksdb::WriteOptions write_options;
};

// One operation of kind kOp; an unexpected outcome counts as a failure.
template <Op kOp>
void operate(const Bench& bench, Picker* picker, std::string* key, std::string* value,
             ThreadResult* result) {
  rocksdb::DB* db = bench.db;
  rocksdb::Status s;
  std::string failure;
  if constexpr (kOp == Op::kGet || kOp == Op::kGetAbsent) {
    uint64_t index = picker->next();
    fill_key(key, kOp == Op::kGetAbsent ? index + bench.config.keys : index);
    rocksdb::PinnableSlice found;
    s = db->Get(bench.read_options, db->DefaultColumnFamily(), *key, &found);
    if (s.ok()) result->checksum ^= checksum(found.data(), found.size());
    if (kOp == Op::kGetAbsent ? s.IsNotFound()
                              : s.ok() && found.size() == bench.config.value_bytes) {
      return;
    }
    failure = "key " + *key + ": ";
    if (!s.ok()) {
      failure += s.ToString();
    } else {
      failure += "found " + std::to_string(found.size()) + " bytes, expected " +
                 (kOp == Op::kGetAbsent ? "NotFound" : std::to_string(bench.config.value_bytes));
    }
  } else if constexpr (kOp == Op::kGetToFile || kOp == Op::kGetCopyToFile) {
    // A temporary file per thread, like the Java side's; the page cache takes the writes.
    thread_local std::unique_ptr<FILE, int (*)(FILE*)> file(std::tmpfile(), &std::fclose);
    if (!file) fail("cannot create a temporary file for " + bench.config.op_name);
    // The reused buffer of get-copy-to-file, like a copying binding's direct buffer.
    thread_local std::vector<char> copy(kOp == Op::kGetCopyToFile ? bench.config.value_bytes : 0);
    uint64_t index = picker->next();
    fill_key(key, index);
    rocksdb::PinnableSlice found;
    s = db->Get(bench.read_options, db->DefaultColumnFamily(), *key, &found);
    if (s.ok() && found.size() == bench.config.value_bytes) {
      const char* written = found.data();
      if constexpr (kOp == Op::kGetCopyToFile) {
        std::memcpy(copy.data(), found.data(), found.size());
        written = copy.data();
      }
      if (pwrite(fileno(file.get()), written, found.size(), 0) == static_cast<ssize_t>(found.size())) {
        return;
      }
    }
    failure = "key " + *key + ": " +
              (s.ok() ? "found " + std::to_string(found.size()) + " bytes, or the write failed"
                      : s.ToString());
  } else if constexpr (kOp == Op::kMultiGet || kOp == Op::kMultiGetFamilies) {
    // The keys live per thread, like the Java side's reusable key arrays.
    thread_local std::vector<std::string> keys(kMultiGetKeys, init_key(bench.config.key_bytes));
    rocksdb::Slice slices[kMultiGetKeys];
    rocksdb::PinnableSlice values[kMultiGetKeys];
    rocksdb::Status statuses[kMultiGetKeys];
    for (int i = 0; i < kMultiGetKeys; i++) {
      fill_key(&keys[i], picker->next());
      slices[i] = keys[i];
    }
    if constexpr (kOp == Op::kMultiGetFamilies) {
      // Every second key from the second family, in one call, as the Java side asks.
      rocksdb::ColumnFamilyHandle* families[kMultiGetKeys];
      for (int i = 0; i < kMultiGetKeys; i++) {
        families[i] = i % 2 == 0 ? db->DefaultColumnFamily() : bench.second;
      }
      db->MultiGet(bench.read_options, kMultiGetKeys, families, slices, values, statuses);
    } else {
      db->MultiGet(bench.read_options, db->DefaultColumnFamily(), kMultiGetKeys, slices, values,
                   statuses);
    }
    for (int i = 0; i < kMultiGetKeys; i++) {
      if (statuses[i].ok() && values[i].size() == bench.config.value_bytes) {
        result->checksum ^= checksum(values[i].data(), values[i].size());
      } else if (failure.empty()) {
        failure = "key " + keys[i] + ": " +
                  (statuses[i].ok() ? "found " + std::to_string(values[i].size()) + " bytes"
                                    : statuses[i].ToString());
      }
    }
    if (failure.empty()) return;
  } else if constexpr (kOp == Op::kScan || kOp == Op::kScanBatches || kOp == Op::kScanViews) {
    uint64_t entries = 0;
    uint64_t sum = 0;
    auto add = [&](const char* k, size_t k_len, const char* v, size_t v_len) {
      sum = sum * 31 + (checksum(k, k_len) ^ checksum(v, v_len));
      entries++;
    };
    rocksdb::ReadOptions options = bench.read_options;
    options.pin_data = kOp == Op::kScanViews;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(options));
    it->SeekToFirst();
    if constexpr (kOp == Op::kScan) {
      for (; it->Valid(); it->Next()) {
        rocksdb::Slice k = it->key();
        rocksdb::Slice v = it->value();
        add(k.data(), k.size(), v.data(), v.size());
      }
    } else if constexpr (kOp == Op::kScanBatches) {
      // pinrock's copy into its batch buffer, then a walk of the batch.
      thread_local std::vector<uint8_t> batch(kScanBatchBytes);
      while (it->Valid()) {
        pinrock::CopiedEntries copied =
            pinrock::copy_entries(*it, false, SIZE_MAX, batch.data(), batch.size());
        if (copied.entries == 0) {
          batch.resize(std::max<size_t>(copied.bytes, 2 * batch.size()));
          continue;
        }
        for (const uint8_t* p = batch.data(); p < batch.data() + copied.bytes;) {
          uint32_t lengths[2];
          std::memcpy(lengths, p, sizeof lengths);
          const char* k = reinterpret_cast<const char*>(p + sizeof lengths);
          add(k, lengths[0], k + lengths[0], lengths[1]);
          p += sizeof lengths + lengths[0] + lengths[1];
        }
      }
    } else {
      // Views instead of copies, as a zero-copy batch would hand them out:
      // pin_data keeps every block the iterator reads pinned, so the values
      // (of plain puts) stay where they are; the keys, which delta encoding
      // rebuilds in the iterator's buffer, are copied. Batches hold as many
      // entry bytes as scan-batches' do.
      struct View {
        size_t key_at;
        size_t key_len;
        const char* value;
        size_t value_len;
      };
      thread_local std::vector<View> views;
      thread_local std::string keys;
      while (it->Valid()) {
        views.clear();
        keys.clear();
        for (size_t bytes = 0; it->Valid(); it->Next()) {
          rocksdb::Slice k = it->key();
          rocksdb::Slice v = it->value();
          bytes += 2 * sizeof(uint32_t) + k.size() + v.size();
          if (bytes > kScanBatchBytes && !views.empty()) break;
          views.push_back(View{keys.size(), k.size(), v.data(), v.size()});
          keys.append(k.data(), k.size());
        }
        for (const View& view : views) {
          add(keys.data() + view.key_at, view.key_len, view.value, view.value_len);
        }
      }
    }
    result->checksum ^= sum;
    if (it->status().ok() && entries == bench.config.keys) return;
    failure = bench.config.op_name + ": ";
    if (!it->status().ok()) {
      failure += it->status().ToString();
    } else {
      failure +=
          std::to_string(entries) + " entries, expected " + std::to_string(bench.config.keys);
    }
  } else if constexpr (kOp == Op::kBatchPut) {
    // One batch per thread, cleared and refilled, like the Java side's.
    thread_local rocksdb::WriteBatch batch;
    batch.Clear();
    for (int i = 0; i < kBatchPuts; i++) {
      uint64_t index = picker->next();
      fill_key(key, index);
      fill_entry(bench.config, value, index);
      s = batch.Put(*key, *value);
      if (!s.ok()) break;
    }
    if (s.ok()) s = db->Write(bench.write_options, &batch);
    if (s.ok()) return;
    failure = "batch of " + std::to_string(kBatchPuts) + " puts: " + s.ToString();
  } else {
    uint64_t index = picker->next();
    fill_key(key, index);
    if constexpr (kOp == Op::kPut) {
      fill_entry(bench.config, value, index);
      s = db->Put(bench.write_options, *key, *value);
    } else {
      s = db->Delete(bench.write_options, *key);
    }
    if (s.ok()) return;
    failure = "key " + *key + ": " + s.ToString();
  }
  if (result->failures++ == 0) result->first_failure = failure;
}

// Runs operations in batches until warm_end, then counts those of the batches
// until measure_end.
template <Op kOp>
void run_thread(const Bench& bench, int thread, Clock::time_point warm_end,
                Clock::time_point measure_end, ThreadResult* result) {
  const Config& config = bench.config;
  Picker picker(thread, config.threads, config.keys, config.order);
  std::string key = init_key(config.key_bytes);
  std::string value(config.value_bytes, '\0');
  ThreadResult local;  // not *result, which shares a cache line with its neighbours
  constexpr int kPerCheck = operations_per_check(kOp);
  auto batch = [&] {
    for (int i = 0; i < kPerCheck; i++) operate<kOp>(bench, &picker, &key, &value, &local);
  };
  Clock::time_point now;
  do {
    batch();
  } while ((now = Clock::now()) < warm_end);
  local.start = now;
  do {
    batch();
    local.operations += kPerCheck;
  } while ((now = Clock::now()) < measure_end);
  local.end = now;
  *result = std::move(local);
}

void run_thread(const Bench& bench, int thread, Clock::time_point warm_end,
                Clock::time_point measure_end, ThreadResult* result) {
  switch (bench.config.op) {
    case Op::kGet:
      return run_thread<Op::kGet>(bench, thread, warm_end, measure_end, result);
    case Op::kGetAbsent:
      return run_thread<Op::kGetAbsent>(bench, thread, warm_end, measure_end, result);
    case Op::kGetToFile:
      return run_thread<Op::kGetToFile>(bench, thread, warm_end, measure_end, result);
    case Op::kGetCopyToFile:
      return run_thread<Op::kGetCopyToFile>(bench, thread, warm_end, measure_end, result);
    case Op::kPut:
      return run_thread<Op::kPut>(bench, thread, warm_end, measure_end, result);
    case Op::kDelete:
      return run_thread<Op::kDelete>(bench, thread, warm_end, measure_end, result);
    case Op::kBatchPut:
      return run_thread<Op::kBatchPut>(bench, thread, warm_end, measure_end, result);
    case Op::kMultiGet:
      return run_thread<Op::kMultiGet>(bench, thread, warm_end, measure_end, result);
    case Op::kMultiGetFamilies:
      return run_thread<Op::kMultiGetFamilies>(bench, thread, warm_end, measure_end, result);
    case Op::kScan:
      return run_thread<Op::kScan>(bench, thread, warm_end, measure_end, result);
    case Op::kScanBatches:
      return run_thread<Op::kScanBatches>(bench, thread, warm_end, measure_end, result);
    case Op::kScanViews:
      return run_thread<Op::kScanViews>(bench, thread, warm_end, measure_end, result);
  }
}

// Puts keys 0..keys-1 in order and checks that all of them stayed in the
// memtable.
void fill_memtable(const Bench& bench, rocksdb::ColumnFamilyHandle* family) {
  std::string key = init_key(bench.config.key_bytes);
  std::string value(bench.config.value_bytes, '\0');
  for (uint64_t i = 0; i < bench.config.keys; i++) {
    fill_key(&key, i);
    fill_value(&value, i);
    rocksdb::Status s = bench.db->Put(bench.write_options, family, key, value);
    if (!s.ok()) fail("put " + key + ": " + s.ToString());
  }
  uint64_t immutable = 0;
  uint64_t sst_bytes = 0;
  if (!bench.db->GetIntProperty(family, rocksdb::DB::Properties::kNumImmutableMemTable, &immutable) ||
      !bench.db->GetIntProperty(family, rocksdb::DB::Properties::kTotalSstFilesSize, &sst_bytes)) {
    fail("cannot read the memtable properties");
  }
  if (immutable != 0 || sst_bytes != 0) {
    fail("the keys do not fit in one memtable: raise --write-buffer-bytes");
  }
}

volatile uint64_t sink;  // keeps the value checksums computed

}  // namespace

int main(int argc, char** argv) {
  Bench bench{parse_args(argc, argv), nullptr, {}, {}};
  const Config& config = bench.config;
  // put-without-log: the puts of put, made without the write-ahead log.
  bench.write_options.disableWAL = config.op_name == "put-without-log";
  bool reads = is_read(config.op);
  bool create = !reads || config.memtable;
  std::error_code ec;
  if (create && std::filesystem::exists(config.db, ec)) {
    fail("--db " + config.db + " exists: " + config.op_name +
         (reads ? " from the memtable" : "") + " creates a new database");
  }

  rocksdb::Options options;
  options.create_if_missing = create;
  options.paranoid_checks = true;
  // pinrock's: one algorithm on every level, zstd at its level 3 in both
  // levels' options (Datasets.options, DbOptions).
  options.compression = config.zstd ? rocksdb::kZSTD : rocksdb::kNoCompression;
  options.bottommost_compression = options.compression;
  options.compression_opts.level = 3;
  options.bottommost_compression_opts = options.compression_opts;
  options.bottommost_compression_opts.enabled = true;
  options.max_open_files = -1;
  options.write_buffer_size = config.write_buffer_bytes;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(config.block_cache_bytes);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, config.db, &db);
  if (!s.ok()) fail("open " + config.db + ": " + s.ToString());
  std::unique_ptr<rocksdb::DB> owner(db);
  bench.db = db;
  if (config.op == Op::kMultiGetFamilies) {
    s = db->CreateColumnFamily(options, "second", &bench.second);
    if (!s.ok()) fail("create the second family: " + s.ToString());
    fill_memtable(bench, bench.second);
  }
  if (reads && config.memtable) fill_memtable(bench, db->DefaultColumnFamily());

  auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  Clock::time_point warm_end = Clock::now() + seconds(config.warmup_seconds);
  Clock::time_point measure_end = warm_end + seconds(config.seconds);
  std::vector<ThreadResult> results(config.threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < config.threads; t++) {
    threads.emplace_back([&, t] { run_thread(bench, t, warm_end, measure_end, &results[t]); });
  }
  for (std::thread& thread : threads) thread.join();

  uint64_t operations = 0;
  uint64_t failures = 0;
  uint64_t sum = 0;
  Clock::time_point start = results[0].start;
  Clock::time_point end = results[0].end;
  for (const ThreadResult& r : results) {
    operations += r.operations;
    if (failures == 0 && r.failures != 0) {
      std::fprintf(stderr, "pinrock_floor: %s\n", r.first_failure.c_str());
    }
    failures += r.failures;
    sum ^= r.checksum;
    start = std::min(start, r.start);
    end = std::max(end, r.end);
  }
  sink = sum;
  if (bench.second != nullptr) db->DestroyColumnFamilyHandle(bench.second);
  if (failures != 0) {
    fail(std::to_string(failures) + " " + config.op_name + " operations had an unexpected outcome");
  }
  double elapsed = std::chrono::duration<double>(end - start).count();
  double ops_per_s = operations / elapsed;
  std::printf("RESULT op=%s ops_per_s=%.3f ns_per_op=%.1f operations=%" PRIu64
              " seconds=%.3f threads=%d\n",
              config.op_name.c_str(), ops_per_s, config.threads * 1e9 / ops_per_s, operations,
              elapsed, config.threads);
  return 0;
}
