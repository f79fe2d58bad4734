// The JNI variant of the data path: entry points for dev.pinrock.internal.JniDb
// and JniCursor (gets, puts, deletes, write batches, multiGets, cursors),
// calling the same pinrock.h functions that the FFM binding calls, so that the
// two boundaries can be compared on one engine binary. Everything else (open,
// close, families, snapshots, maintenance, statistics) goes through FFM
// whichever the binding. Failures become
// exceptions through the Java factory dev.pinrock.RocksDbException.of, the
// same one the FFM binding uses, so both variants throw the same exceptions.
#include <jni.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "pinrock.h"

#define PR_JNI_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kErrCap = 1024;
// Values up to this size come back through a stack buffer in one call.
constexpr size_t kValueCap = 16 * 1024;
// The longest value a byte[] can take (the JDK's arrays stop a few bytes short of 2^31).
constexpr uint64_t kMaxArrayBytes = INT32_MAX - 8;

jclass exception_class = nullptr;
jmethodID exception_of = nullptr;

pr_db_t* db_of(jlong handle) { return reinterpret_cast<pr_db_t*>(static_cast<intptr_t>(handle)); }

const uint8_t* address_of(jlong address) {
  return reinterpret_cast<const uint8_t*>(static_cast<intptr_t>(address));
}

// Throws RocksDbException.of(status, message) as a pending Java exception.
void throw_status(JNIEnv* env, int32_t status, const char* message) {
  jstring text = env->NewStringUTF(message);
  if (text == nullptr) return;  // OutOfMemoryError pending
  auto exception = static_cast<jthrowable>(
      env->CallStaticObjectMethod(exception_class, exception_of, static_cast<jint>(status), text));
  if (exception != nullptr) env->Throw(exception);
}

// For a value that no byte[] can hold; FfmDb words the same refusal.
void throw_too_large_for_array(JNIEnv* env) {
  throw_status(env, PR_CODE_INVALID_ARGUMENT,
               "Invalid argument: the value has more bytes than a Java array holds;"
               " read it with getPinned");
}

// Returns true when status is PR_OK; otherwise leaves an exception pending.
bool ok(JNIEnv* env, int32_t status, const char* err) {
  if (status == PR_OK) return true;
  throw_status(env, status, err);
  return false;
}

// A copy of a Java byte[] in native memory: on the stack when small.
class JavaBytes {
 public:
  JavaBytes(JNIEnv* env, jbyteArray array) : length_(env->GetArrayLength(array)) {
    uint8_t* target = stack_;
    if (length_ > sizeof stack_) {
      heap_.reset(new (std::nothrow) uint8_t[length_]);
      target = heap_.get();
      if (target == nullptr) {
        env->ThrowNew(env->FindClass("java/lang/OutOfMemoryError"), "pinrock JNI: key or value copy");
        return;
      }
    }
    env->GetByteArrayRegion(array, 0, static_cast<jsize>(length_), reinterpret_cast<jbyte*>(target));
    data_ = target;
  }
  bool valid() const { return data_ != nullptr; }
  const uint8_t* data() const { return data_; }
  size_t length() const { return length_; }

 private:
  size_t length_;
  const uint8_t* data_ = nullptr;
  uint8_t stack_[256];
  std::unique_ptr<uint8_t[]> heap_;
};

// A read flag of these entry points only (JniDb.MEMORY_FIRST_ATTEMPT): the
// memory-only first try of a get (PR_READ_MEMORY_ONLY), which answers
// PR_CODE_INCOMPLETE instead of throwing when the read would need I/O.
constexpr jint kMemoryFirstAttempt = 1 << 30;
// What the entry points answer for such an attempt (JniDb.NEEDS_IO_LENGTH).
constexpr jint kNeedsIo = -2;

// Reads key; on success *result says where the value went (buf or a pin).
// Returns PR_OK, PR_NOT_FOUND, PR_CODE_INCOMPLETE (a kMemoryFirstAttempt
// that needs I/O), or -1 with an exception pending.
// Reads with default read options through pr_db_get, others through
// pr_db_get_at (snapshot 0 is the latest state).
int32_t get(JNIEnv* env, jlong db, jlong snapshot, jint read_flags, const uint8_t* key,
            size_t key_len, uint8_t* buf, size_t cap, uint32_t flags, pr_get_result_t* result) {
  char err[kErrCap];
  bool attempt = (read_flags & kMemoryFirstAttempt) != 0;
  if (attempt) read_flags = (read_flags & ~kMemoryFirstAttempt) | PR_READ_MEMORY_ONLY;
  int32_t status =
      snapshot == 0 && read_flags == 0
          ? pr_db_get(db_of(db), key, key_len, buf, cap, flags, result, err, sizeof err)
          : pr_db_get_at(db_of(db), reinterpret_cast<const pr_snapshot_t*>(snapshot),
                         static_cast<uint32_t>(read_flags), key, key_len, buf, cap, flags, result,
                         err, sizeof err);
  if (status == PR_OK || status == PR_NOT_FOUND) return status;
  if (attempt && status == PR_CODE_INCOMPLETE) return status;
  throw_status(env, status, err);
  return -1;
}

}  // namespace

PR_JNI_EXPORT jint JNI_OnLoad(JavaVM* vm, void*) {
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  jclass local = env->FindClass("dev/pinrock/RocksDbException");
  if (local == nullptr) {
    // Loaded without the Java API (e.g. through FFM only by another loader):
    // the JNI variant is then unusable, the C ABI is not affected.
    env->ExceptionClear();
    return JNI_VERSION_1_8;
  }
  exception_class = static_cast<jclass>(env->NewGlobalRef(local));
  exception_of = env->GetStaticMethodID(exception_class, "of",
                                        "(ILjava/lang/String;)Ldev/pinrock/RocksDbException;");
  if (exception_of == nullptr) return JNI_ERR;
  return JNI_VERSION_1_8;
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_put(JNIEnv* env, jclass, jlong db,
                                                                jbyteArray key, jbyteArray value) {
  JavaBytes k(env, key);
  if (!k.valid()) return;
  JavaBytes v(env, value);
  if (!v.valid()) return;
  char err[kErrCap];
  ok(env, pr_db_put(db_of(db), k.data(), k.length(), v.data(), v.length(), err, sizeof err), err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_putAddress(
    JNIEnv* env, jclass, jlong db, jlong key, jlong key_len, jlong value, jlong value_len) {
  char err[kErrCap];
  ok(env,
     pr_db_put(db_of(db), address_of(key), key_len, address_of(value), value_len, err, sizeof err),
     err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_delete(JNIEnv* env, jclass, jlong db,
                                                                   jbyteArray key) {
  JavaBytes k(env, key);
  if (!k.valid()) return;
  char err[kErrCap];
  ok(env, pr_db_delete(db_of(db), k.data(), k.length(), err, sizeof err), err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_deleteAddress(JNIEnv* env, jclass,
                                                                          jlong db, jlong key,
                                                                          jlong key_len) {
  char err[kErrCap];
  ok(env, pr_db_delete(db_of(db), address_of(key), key_len, err, sizeof err), err);
}

PR_JNI_EXPORT jbyteArray JNICALL Java_dev_pinrock_internal_JniDb_get(JNIEnv* env, jclass,
                                                                     jlong db, jlong snapshot,
                                                                     jint read_flags,
                                                                     jbyteArray key,
                                                                     jbyteArray needs_io) {
  JavaBytes k(env, key);
  if (!k.valid()) return nullptr;
  uint8_t buf[kValueCap];
  pr_get_result_t result;
  int32_t status = get(env, db, snapshot, read_flags, k.data(), k.length(), buf, sizeof buf,
                       PR_GET_PIN_IF_LARGER, &result);
  if (status == PR_CODE_INCOMPLETE) return needs_io;
  if (status != PR_OK) return nullptr;
  std::unique_ptr<pr_pin_t, void (*)(pr_pin_t*)> pin(result.pin, pr_pin_release);
  if (result.value_len > kMaxArrayBytes) {
    throw_too_large_for_array(env);
    return nullptr;
  }
  jsize length = static_cast<jsize>(result.value_len);
  jbyteArray value = env->NewByteArray(length);
  if (value == nullptr) return nullptr;
  env->SetByteArrayRegion(value, 0, length, reinterpret_cast<const jbyte*>(result.data));
  return value;
}

PR_JNI_EXPORT jint JNICALL Java_dev_pinrock_internal_JniDb_getInto(JNIEnv* env, jclass, jlong db,
                                                                    jlong snapshot,
                                                                    jint read_flags,
                                                                    jbyteArray key,
                                                                    jbyteArray dst) {
  JavaBytes k(env, key);
  if (!k.valid()) return 0;
  size_t capacity = static_cast<size_t>(env->GetArrayLength(dst));
  uint8_t buf[kValueCap];
  size_t cap = capacity < sizeof buf ? capacity : sizeof buf;
  uint32_t flags = capacity > sizeof buf ? PR_GET_PIN_IF_LARGER : 0;
  pr_get_result_t result;
  int32_t status = get(env, db, snapshot, read_flags, k.data(), k.length(), buf, cap, flags, &result);
  if (status == PR_NOT_FOUND) return -1;
  if (status == PR_CODE_INCOMPLETE) return kNeedsIo;
  if (status != PR_OK) return 0;
  std::unique_ptr<pr_pin_t, void (*)(pr_pin_t*)> pin(result.pin, pr_pin_release);
  if (result.value_len <= capacity) {
    env->SetByteArrayRegion(dst, 0, static_cast<jsize>(result.value_len),
                            reinterpret_cast<const jbyte*>(result.data));
  }
  return result.value_len > INT32_MAX ? INT32_MAX : static_cast<jint>(result.value_len);
}

PR_JNI_EXPORT jlong JNICALL Java_dev_pinrock_internal_JniDb_getAddress(
    JNIEnv* env, jclass, jlong db, jlong snapshot, jint read_flags, jlong key, jlong key_len,
    jlong dst, jlong dst_cap) {
  pr_get_result_t result;
  uint8_t* buf = const_cast<uint8_t*>(address_of(dst));
  int32_t status =
      get(env, db, snapshot, read_flags, address_of(key), key_len, buf, dst_cap, 0, &result);
  if (status == PR_NOT_FOUND) return -1;
  if (status == PR_CODE_INCOMPLETE) return kNeedsIo;
  if (status != PR_OK) return 0;
  return static_cast<jlong>(result.value_len);
}

PR_JNI_EXPORT jlong JNICALL Java_dev_pinrock_internal_JniDb_getPinned(JNIEnv* env, jclass,
                                                                       jlong db, jlong snapshot,
                                                                       jint read_flags,
                                                                       jbyteArray key,
                                                                       jlongArray out) {
  JavaBytes k(env, key);
  if (!k.valid()) return 0;
  pr_get_result_t result;
  int32_t status = get(env, db, snapshot, read_flags, k.data(), k.length(), nullptr, 0,
                       PR_GET_PIN_IF_LARGER, &result);
  if (status == PR_NOT_FOUND) return -1;
  if (status == PR_CODE_INCOMPLETE) return kNeedsIo;
  if (status != PR_OK) return 0;
  jlong fields[2] = {static_cast<jlong>(reinterpret_cast<intptr_t>(result.data)),
                     static_cast<jlong>(result.value_len)};
  env->SetLongArrayRegion(out, 0, 2, fields);
  return static_cast<jlong>(reinterpret_cast<intptr_t>(result.pin));
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_releasePin(JNIEnv*, jclass, jlong pin) {
  pr_pin_release(reinterpret_cast<pr_pin_t*>(static_cast<intptr_t>(pin)));
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_write(JNIEnv* env, jclass, jlong db,
                                                                  jlong batch, jlong batch_len,
                                                                  jint flags) {
  char err[kErrCap];
  ok(env,
     pr_db_write(db_of(db), address_of(batch), batch_len, static_cast<uint32_t>(flags), err,
                 sizeof err),
     err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_multiGetInto(
    JNIEnv* env, jclass, jlong db, jlong snapshot, jint read_flags, jlong families, jlong count,
    jlong keys, jlong key_lens, jlong dst, jlong dst_cap, jlong value_offsets, jlong value_lens,
    jlong statuses) {
  char err[kErrCap];
  ok(env,
     pr_db_multi_get_with(db_of(db), reinterpret_cast<const pr_snapshot_t*>(snapshot),
                          static_cast<uint32_t>(read_flags),
                          reinterpret_cast<pr_db_t* const*>(families), static_cast<size_t>(count),
                          reinterpret_cast<const uint8_t* const*>(keys),
                          reinterpret_cast<const size_t*>(key_lens),
                          reinterpret_cast<uint8_t*>(dst), static_cast<size_t>(dst_cap),
                          reinterpret_cast<uint64_t*>(value_offsets),
                          reinterpret_cast<uint64_t*>(value_lens),
                          reinterpret_cast<int32_t*>(statuses), err, sizeof err),
     err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniDb_multiGetPinned(
    JNIEnv* env, jclass, jlong db, jlong snapshot, jint read_flags, jlong families, jlong count,
    jlong keys, jlong key_lens, jlong results, jlong statuses) {
  char err[kErrCap];
  ok(env,
     pr_db_multi_get_pinned_with(db_of(db), reinterpret_cast<const pr_snapshot_t*>(snapshot),
                                 static_cast<uint32_t>(read_flags),
                                 reinterpret_cast<pr_db_t* const*>(families),
                                 static_cast<size_t>(count),
                                 reinterpret_cast<const uint8_t* const*>(keys),
                                 reinterpret_cast<const size_t*>(key_lens),
                                 reinterpret_cast<pr_get_result_t*>(results),
                                 reinterpret_cast<int32_t*>(statuses), err, sizeof err),
     err);
}

PR_JNI_EXPORT jlong JNICALL Java_dev_pinrock_internal_JniDb_openCursor(
    JNIEnv* env, jclass, jlong db, jlong snapshot, jint read_flags, jlong readahead_bytes,
    jbyteArray lower, jbyteArray upper, jboolean prefix) {
  std::unique_ptr<JavaBytes> first(lower != nullptr ? new JavaBytes(env, lower) : nullptr);
  std::unique_ptr<JavaBytes> last(upper != nullptr ? new JavaBytes(env, upper) : nullptr);
  if ((first && !first->valid()) || (last && !last->valid())) return 0;
  uint32_t bounds = (first ? PR_RANGE_HAS_BEGIN : 0) | (last ? PR_RANGE_HAS_END : 0) |
                    (prefix ? PR_RANGE_PREFIX : 0);
  pr_cursor_t* cursor = nullptr;
  char err[kErrCap];
  ok(env,
     pr_cursor_open(db_of(db), reinterpret_cast<const pr_snapshot_t*>(snapshot),
                    static_cast<uint32_t>(read_flags), static_cast<uint64_t>(readahead_bytes),
                    first ? first->data() : nullptr, first ? first->length() : 0,
                    last ? last->data() : nullptr, last ? last->length() : 0, bounds, &cursor, err,
                    sizeof err),
     err);
  return reinterpret_cast<jlong>(cursor);
}

namespace {

pr_cursor_t* cursor_of(jlong handle) {
  return reinterpret_cast<pr_cursor_t*>(static_cast<intptr_t>(handle));
}

// Returns PR_OK or PR_NOT_FOUND; any other status becomes a pending exception.
jint position(JNIEnv* env, int32_t status, const char* err) {
  if (status == PR_NOT_FOUND) return status;
  ok(env, status, err);
  return status;
}

}  // namespace

PR_JNI_EXPORT jint JNICALL Java_dev_pinrock_internal_JniCursor_move(JNIEnv* env, jclass,
                                                                   jlong cursor, jint op, jlong key,
                                                                   jlong key_len, jlong entry) {
  char err[kErrCap];
  return position(env,
                  pr_cursor_move(cursor_of(cursor), op, address_of(key),
                                 static_cast<size_t>(key_len),
                                 reinterpret_cast<pr_cursor_entry_t*>(entry), err, sizeof err),
                  err);
}

PR_JNI_EXPORT jint JNICALL Java_dev_pinrock_internal_JniCursor_scan(JNIEnv* env, jclass,
                                                                   jlong cursor, jint flags,
                                                                   jlong max_entries, jlong buf,
                                                                   jlong buf_cap, jlong counts,
                                                                   jlong entry) {
  char err[kErrCap];
  auto* outputs = reinterpret_cast<uint64_t*>(counts);
  return position(
      env,
      pr_cursor_scan(cursor_of(cursor), static_cast<uint32_t>(flags),
                     static_cast<size_t>(max_entries), reinterpret_cast<uint8_t*>(buf),
                     static_cast<size_t>(buf_cap), &outputs[0], &outputs[1],
                     reinterpret_cast<pr_cursor_entry_t*>(entry), err, sizeof err),
      err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniCursor_refresh(JNIEnv* env, jclass,
                                                                     jlong cursor, jlong snapshot) {
  char err[kErrCap];
  ok(env,
     pr_cursor_refresh(cursor_of(cursor), reinterpret_cast<const pr_snapshot_t*>(snapshot), err,
                       sizeof err),
     err);
}

PR_JNI_EXPORT void JNICALL Java_dev_pinrock_internal_JniCursor_close(JNIEnv*, jclass,
                                                                   jlong cursor) {
  pr_cursor_close(cursor_of(cursor));
}

// Fills statuses (one per key) and returns the values, null where a key has
// no value; the Java side turns failed statuses into exceptions, as for FFM.
PR_JNI_EXPORT jobjectArray JNICALL Java_dev_pinrock_internal_JniDb_multiGet(
    JNIEnv* env, jclass, jlong db, jobjectArray keys, jintArray statuses) {
  size_t n = static_cast<size_t>(env->GetArrayLength(keys));
  std::vector<size_t> key_lens(n);
  std::vector<uint8_t> key_bytes;
  for (size_t i = 0; i < n; i++) {
    auto key = static_cast<jbyteArray>(env->GetObjectArrayElement(keys, static_cast<jsize>(i)));
    key_lens[i] = static_cast<size_t>(env->GetArrayLength(key));
    size_t at = key_bytes.size();
    key_bytes.resize(at + key_lens[i]);
    env->GetByteArrayRegion(key, 0, static_cast<jsize>(key_lens[i]),
                            reinterpret_cast<jbyte*>(key_bytes.data() + at));
    env->DeleteLocalRef(key);
  }
  std::vector<const uint8_t*> key_ptrs(n);
  for (size_t i = 0, at = 0; i < n; at += key_lens[i], i++) key_ptrs[i] = key_bytes.data() + at;
  std::vector<uint64_t> offsets(n), value_lens(n);
  std::vector<int32_t> key_statuses(n);
  std::vector<uint8_t> buf(kValueCap);
  char err[kErrCap];
  while (true) {
    if (!ok(env,
            pr_db_multi_get(db_of(db), n, key_ptrs.data(), key_lens.data(), buf.data(),
                            buf.size(), offsets.data(), value_lens.data(), key_statuses.data(),
                            err, sizeof err),
            err)) {
      return nullptr;
    }
    size_t needed = 0;
    bool all_copied = true;
    for (size_t i = 0; i < n; i++) {
      if (key_statuses[i] != PR_OK) continue;
      if (value_lens[i] > kMaxArrayBytes) {
        throw_too_large_for_array(env);
        return nullptr;
      }
      needed += value_lens[i];
      all_copied = all_copied && offsets[i] != PR_MULTI_GET_NOT_COPIED;
    }
    if (all_copied) break;
    buf.resize(needed);  // values changed size meanwhile: the loop retries
  }
  env->SetIntArrayRegion(statuses, 0, static_cast<jsize>(n),
                         reinterpret_cast<const jint*>(key_statuses.data()));
  jobjectArray values = env->NewObjectArray(static_cast<jsize>(n), env->FindClass("[B"), nullptr);
  if (values == nullptr) return nullptr;
  for (size_t i = 0; i < n; i++) {
    if (key_statuses[i] != PR_OK) continue;
    jbyteArray value = env->NewByteArray(static_cast<jsize>(value_lens[i]));
    if (value == nullptr) return nullptr;
    env->SetByteArrayRegion(value, 0, static_cast<jsize>(value_lens[i]),
                            reinterpret_cast<const jbyte*>(buf.data() + offsets[i]));
    env->SetObjectArrayElement(values, static_cast<jsize>(i), value);
    env->DeleteLocalRef(value);
  }
  return values;
}

// JniDb.probe: times calls into JniDb.probed, each checked for an
// exception, as a JNI callback must be: the cost of one, for the benchmarks.
PR_JNI_EXPORT jlong JNICALL Java_dev_pinrock_internal_JniDb_callBack(JNIEnv* env, jclass type,
                                                                     jlong times) {
  jmethodID probed = env->GetStaticMethodID(type, "probed", "()I");
  if (probed == nullptr) return 0;  // NoSuchMethodError pending
  jlong returned = 0;
  for (jlong i = 0; i < times; i++) {
    env->CallStaticIntMethod(type, probed);
    if (env->ExceptionCheck()) return returned;
    returned++;
  }
  return returned;
}
