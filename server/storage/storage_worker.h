// Group commit: one thread applies the lobby's write batches to a Storage. Whatever queued up
// while a commit was running goes into the next transaction together, so the cost of a durable
// commit (an fsync) is shared by every move that arrived meanwhile. Archive queries run on the
// same thread after the writes queued before them.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/core/lobby_effects.h"
#include "server/core/storage.h"

namespace amazons::server {

// A game whose fence was stale (FencedWrite): another node holds it with `holder`. Every job
// whose batch fenced the game was left out of the transaction, whole (one lobby step is
// stored entirely or not at all); the other jobs were stored.
struct FencedGame {
  GameId game = 0;
  std::int64_t holder = 0;
  std::vector<std::uint64_t> jobs;  // the jobs not stored
  friend bool operator==(const FencedGame&, const FencedGame&) = default;
};

struct StorageCompletion {
  std::uint64_t through = 0;  // every job up to this sequence number is done
  std::vector<std::pair<std::uint64_t, Outbound>> replies;  // query answers, by job
  std::optional<std::string> error;  // the commit failed: nothing after it is stored
  std::vector<FencedGame> fenced;    // jobs refused for a stale fence; the rest is stored
  std::size_t batch_jobs = 0;        // jobs in this transaction (for statistics)
};

class StorageWorker {
 public:
  using Done = std::function<void(StorageCompletion)>;
  // `done` is called on the worker thread after each transaction.
  StorageWorker(Storage& storage, Done done);
  ~StorageWorker();  // finishes every queued job, then joins
  StorageWorker(const StorageWorker&) = delete;
  StorageWorker& operator=(const StorageWorker&) = delete;

  // Queues a job; returns its sequence number (1, 2, ...). Any thread.
  std::uint64_t submit(WriteBatch writes, std::vector<ArchiveQuery> queries);
  // Queues a read of the database that runs on the worker thread after every job queued before
  // it (and not at all once storage has failed). Its exceptions are caught and dropped. Any
  // thread.
  void read(std::function<void(Storage&)> fn);
  // Finishes every queued job and stops the thread. Idempotent.
  void stop();

  std::uint64_t transactions() const;

 private:
  struct Job {
    std::uint64_t seq;
    WriteBatch writes;
    std::vector<ArchiveQuery> queries;
    std::function<void(Storage&)> read = {};
  };
  void run();
  // Applies the batches (seqs: the job of each) in one transaction. A stale fence leaves out
  // the batches that carry it and tries the rest again (c.fenced); any other error fails the
  // worker (c.error).
  void apply(std::vector<WriteBatch>& batches, std::vector<std::uint64_t>& seqs,
             StorageCompletion& c);

  Storage& storage_;
  Done done_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::uint64_t next_seq_ = 1;
  std::uint64_t transactions_ = 0;
  bool stopping_ = false;
  bool failed_ = false;
  std::thread thread_;
};

}  // namespace amazons::server
