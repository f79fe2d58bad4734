// The directory a database writes besides its own, its log directory, and
// how pr_db_open and pr_db_repair make sure that it is its own, in this
// process and across processes and time.
//
// RocksDB keeps nothing in a log directory that names the database: it
// replays every log file it finds there whose number is new to it, and
// deletes the ones it counts as obsolete. So a database opened without the
// log directory it was written with loses the writes in that log; two
// databases sharing a log directory replay and delete each other's logs; a
// checkpoint (whose OPTIONS file names the source's log directory) opened
// with it replays the source's later writes and deletes them. pinrock writes
// an owner marker (kMarker) into a database's log directory, recording the
// database directory's device and inode (and its path, for messages), and
// refuses an open that would use a log directory another database owns, or
// a log directory other than the one holding the database's log files.
#include "internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace pinrock::internal;

namespace {

// The owner marker's file name: one RocksDB does not parse, so it neither
// reads nor deletes it.
constexpr const char* kMarker = "PINROCK-OWNER";

std::string absolute(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

// What a marker records: the owning database directory's identity and path.
struct Owner {
  DirectoryIdentity identity;
  std::string path;
};

// The owner the marker in directory names: none without a marker; a marker
// that does not parse names an unknown owner (identity 0/0).
std::optional<Owner> read_marker(const std::string& directory) {
  FILE* file = std::fopen((directory + "/" + kMarker).c_str(), "r");
  if (file == nullptr) return std::nullopt;
  Owner owner{{0, 0}, "an unknown database (the marker does not parse)"};
  unsigned long long device = 0, inode = 0;
  char line[PATH_MAX + 16];
  while (std::fgets(line, sizeof line, file) != nullptr) {
    std::string text(line);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    if (std::sscanf(line, "device=%llu", &device) == 1) continue;
    if (std::sscanf(line, "inode=%llu", &inode) == 1) continue;
    if (text.rfind("path=", 0) == 0) owner.path = text.substr(5);
  }
  std::fclose(file);
  owner.identity = DirectoryIdentity{static_cast<dev_t>(device), static_cast<ino_t>(inode)};
  return owner;
}

// Writes the marker naming owner into directory, durably: a temporary file,
// synced, renamed over the marker, and the directory synced.
rocksdb::Status write_marker(const std::string& directory, const Owner& owner) {
  const std::string marker = directory + "/" + kMarker;
  const std::string temporary = marker + ".tmp";
  std::string text = "pinrock: this directory holds files of the database below; see "
                     "DbOptions.walDir before moving them\n";
  text += "device=" + std::to_string(owner.identity.device) + "\n";
  text += "inode=" + std::to_string(owner.identity.inode) + "\n";
  text += "path=" + owner.path + "\n";
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool written = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                 ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!written || ::rename(temporary.c_str(), marker.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return rocksdb::Status::IOError("cannot write the owner marker " + marker);
  }
  int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return rocksdb::Status::OK();
}

// Whether name is <digits><suffix>, as RocksDB names its numbered files.
bool numbered(const std::string& name, const std::string& suffix) {
  if (name.size() <= suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  for (size_t i = 0; i < name.size() - suffix.size(); i++) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

// Whether directory holds a file that accept takes.
template <typename Accept>
bool holds(const std::string& directory, Accept&& accept) {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return false;
  bool found = false;
  while (struct dirent* entry = ::readdir(dir)) {
    if (accept(std::string(entry->d_name))) {
      found = true;
      break;
    }
  }
  ::closedir(dir);
  return found;
}

bool holds_log_files(const std::string& directory) {
  return holds(directory, [](const std::string& name) { return numbered(name, ".log"); });
}

const char* const kMoving =
    " (to move a database's log directory: close it, move its log files, the *.log files, and "
    "the PINROCK-OWNER file if there is one, from the old directory into the new one, and open "
    "it with the new one; see DbOptions.walDir)";

// The log directory logs of the database at database (identity self),
// checked across processes and time: refused when its marker names another
// database, when it is another database's directory, or when it has no
// marker yet holds log files that unmarked_ok does not vouch for as the
// database's own (written before pinrock wrote markers). Returns OK or
// InvalidArgument naming the directory and why.
rocksdb::Status check_owner(const std::string& database, const DirectoryIdentity& self,
                            const std::string& logs, bool unmarked_ok) {
  const std::string named = "the log directory " + logs + " of the database at " + database;
  if (std::optional<Owner> owner = read_marker(logs)) {
    if (owner->identity == self) return rocksdb::Status::OK();
    return rocksdb::Status::InvalidArgument(
        named + " belongs to the database at " + owner->path + ", as its " + kMarker +
        " file records: a directory holds the files of one database only (only if that "
        "database is gone, or the files here are this database's, moved or copied here with "
        "it, delete the " + kMarker + " file)");
  }
  struct stat status;
  if (::stat((logs + "/CURRENT").c_str(), &status) == 0) {
    return rocksdb::Status::InvalidArgument(named + " is another database's directory");
  }
  if (!unmarked_ok && holds_log_files(logs)) {
    return rocksdb::Status::InvalidArgument(
        named + " holds log files of another database (no " + kMarker +
        " file says whose): a directory holds the files of one database only" + kMoving);
  }
  return rocksdb::Status::OK();
}

}  // namespace

namespace pinrock::internal {

// The directory the database at path keeps its log files in, as far as its
// newest OPTIONS file (read into recorded) tells: its wal_dir ("" for its own
// directory), unless that is an OPTIONS file copied with the database from
// another one (a checkpoint of a database with a log directory copies the
// logs into its own directory, and its OPTIONS file names the source's log
// directory): then the logs are in the database's own directory, "". It is
// one when the marker in wal_dir names another database, or, wal_dir having
// no marker (written before pinrock wrote markers), when the database's own
// directory holds log files: RocksDB writes none there with a log directory.
std::string recorded_log_directory(const std::string& path, const rocksdb::DBOptions& recorded) {
  if (recorded.wal_dir.empty()) return "";
  std::optional<DirectoryIdentity> self = directory_identity(path);
  if (!self || directory_identity(recorded.wal_dir) == self) return "";
  std::optional<Owner> owner = read_marker(recorded.wal_dir);
  if (owner ? owner->identity != *self : holds_log_files(path)) return "";
  return recorded.wal_dir;
}

// Claims (claim: in this process) and checks (check_owner: across
// processes and time) the log directory that the database at path, about to
// be opened with options, writes when it is not its own; refuses a log
// directory other than the one holding the database's log files; then
// writes the owner marker, before RocksDB opens anything. (db_paths and
// cf_paths, the other directories RocksDB can write, cannot be set through
// pinrock: RocksDB's option strings do not offer them.) A log directory that
// is the database's own under another spelling becomes "" in options, and a
// relative one absolute, so that the OPTIONS file records where it is.
// Returns OK, or InvalidArgument or IOError naming the directory and why; OK
// at once when path is no directory (RocksDB's open fails and says why).
rocksdb::Status claim_written_directories(const std::string& path, rocksdb::DBOptions* options,
                                          DirectoryClaim* claim) {
  std::optional<DirectoryIdentity> self = directory_identity(path);
  if (!self) return rocksdb::Status::OK();
  if (std::optional<Owner> owner = read_marker(path); owner && owner->identity != *self) {
    return rocksdb::Status::InvalidArgument(
        "the directory " + path + " holds files of the database at " + owner->path + ", as its " +
        kMarker + " file records: it cannot be a database of its own");
  }
  // The log directory: made as RocksDB would make it, one level deep.
  if (!options->wal_dir.empty()) {
    ::mkdir(options->wal_dir.c_str(), 0755);
    if (directory_identity(options->wal_dir) == self) {
      options->wal_dir.clear();
    } else {
      options->wal_dir = absolute(options->wal_dir);
    }
  }
  const std::string logs_now = options->wal_dir.empty() ? path : options->wal_dir;
  if (!options->wal_dir.empty()) {
    rocksdb::Status claimed = claim->ClaimAlso(options->wal_dir, "log directory");
    if (!claimed.ok()) return claimed;
  }
  rocksdb::DBOptions recorded;
  RecordedFamilies recorded_families;
  const bool has_recorded = load_recorded_families(path, &recorded, &recorded_families).ok();
  std::string logs_were = path;
  if (has_recorded) {
    std::string recorded_logs = recorded_log_directory(path, recorded);
    if (!recorded_logs.empty()) logs_were = recorded_logs;
  }
  if (!options->wal_dir.empty()) {
    // Unmarked log files are the database's when its OPTIONS file records
    // this directory, or when the logs were moved here from the one it does.
    std::optional<DirectoryIdentity> logs = directory_identity(options->wal_dir);
    bool unmarked_ok = has_recorded && (directory_identity(recorded.wal_dir) == logs ||
                                        !holds_log_files(logs_were));
    rocksdb::Status owned = check_owner(path, *self, options->wal_dir, unmarked_ok);
    if (!owned.ok()) return owned;
  }
  if (has_recorded && directory_identity(logs_were) != directory_identity(logs_now) &&
      holds_log_files(logs_were)) {
    return rocksdb::Status::InvalidArgument(
        "the database at " + path + " was written with its log in " + logs_were +
        ", which holds log files: opened with log directory " + logs_now +
        " it would not replay them and would lose the writes they hold; open it with walDir " +
        logs_were + kMoving);
  }
  if (options->wal_dir.empty() || read_marker(options->wal_dir)) return rocksdb::Status::OK();
  return write_marker(options->wal_dir, Owner{*self, absolute(path)});
}

}  // namespace pinrock::internal
