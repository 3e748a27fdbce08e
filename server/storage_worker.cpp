#include "server/storage_worker.h"

namespace amazons::server {

StorageWorker::StorageWorker(Storage& storage, Done done)
    : storage_(storage), done_(std::move(done)), thread_([this] { run(); }) {}

StorageWorker::~StorageWorker() { stop(); }

std::uint64_t StorageWorker::submit(WriteBatch writes, std::vector<ArchiveQuery> queries) {
  std::lock_guard lock(mutex_);
  const std::uint64_t seq = next_seq_++;
  queue_.push_back({seq, std::move(writes), std::move(queries)});
  wake_.notify_one();
  return seq;
}

void StorageWorker::read(std::function<void(Storage&)> fn) {
  std::lock_guard lock(mutex_);
  queue_.push_back({next_seq_++, {}, {}, std::move(fn)});
  wake_.notify_one();
}

void StorageWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
}

std::uint64_t StorageWorker::transactions() const {
  std::lock_guard lock(mutex_);
  return transactions_;
}

void StorageWorker::run() {
  for (;;) {
    std::deque<Job> jobs;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is done
      jobs.swap(queue_);
    }
    StorageCompletion c;
    c.through = jobs.back().seq;
    c.batch_jobs = jobs.size();
    if (failed_) {
      c.error = "storage failed earlier";
    } else {
      std::vector<WriteBatch> batches;
      for (auto& j : jobs)
        if (!j.writes.empty()) batches.push_back(std::move(j.writes));
      try {
        if (!batches.empty()) storage_.apply(batches);
      } catch (const std::exception& e) {
        failed_ = true;
        c.error = e.what();
      }
      if (!failed_) {
        for (const auto& j : jobs)
          for (const auto& q : j.queries) c.replies.emplace_back(j.seq, answer_query(storage_, q));
        for (const auto& j : jobs) {
          if (!j.read) continue;
          try {
            j.read(storage_);
          } catch (const std::exception&) {
          }
        }
      }
      std::lock_guard lock(mutex_);
      if (!batches.empty()) ++transactions_;
    }
    done_(std::move(c));
  }
}

}  // namespace amazons::server
