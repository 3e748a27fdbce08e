// Redis over hiredis: the connection, its commands and pipelines (redis.h). The build without
// hiredis has redis_absent.cpp instead.
#include "cluster/redis.h"

#include <hiredis/hiredis.h>
#include <poll.h>

#include <cerrno>
#include <memory>

#include "cluster/hiredis_util.h"

namespace amazons::cluster {

namespace {

using detail::ReplyPtr;
using detail::to_timeval;

// Converts hiredis's reply tree into owned values; an error anywhere in it is reported.
Expected<RedisReply, std::string> convert(const redisReply& r) {
  RedisReply out;
  switch (r.type) {
    case REDIS_REPLY_NIL:
      out.type = RedisReply::Type::Nil;
      break;
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::Integer;
      out.integer = r.integer;
      break;
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::String;
      out.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::Status;
      out.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_ERROR:
      return Unexpected(std::string(r.str, r.len));
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::Array;
      out.elements.reserve(r.elements);
      for (std::size_t i = 0; i < r.elements; ++i) {
        auto e = convert(*r.element[i]);
        if (!e) return Unexpected(e.error());
        out.elements.push_back(std::move(*e));
      }
      break;
    default:
      return Unexpected("an unknown reply type " + std::to_string(r.type));
  }
  return out;
}

}  // namespace

Expected<void, std::string> redis_client() { return {}; }

Redis::Redis(RedisAddress address, RedisOptions options)
    : address_(std::move(address)), options_(options) {}

Redis::~Redis() { disconnect(); }

void Redis::disconnect() {
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
}

bool Redis::connected() const { return ctx_ != nullptr && ctx_->err == 0; }

// Between commands nothing is owed to us: a connection that has something to read then has
// been closed by Redis (a restart) or is out of step. Found before sending, a new connection
// can carry the command instead, and it certainly did not run on the old one.
bool Redis::stale() const {
  pollfd p{ctx_->fd, POLLIN, 0};
  return ::poll(&p, 1, 0) != 0;
}

Expected<void, RedisError> Redis::connect() {
  if (connected() && !stale()) return {};
  disconnect();
  const auto now = std::chrono::steady_clock::now();
  if (now < next_connect_)
    return Unexpected(RedisError{RedisErrorKind::Unreachable,
                                 "redis " + address_.text() + ": not connected (" +
                                     last_connect_error_ + "); trying again shortly"});
  redisContext* c = redisConnectWithTimeout(address_.host.c_str(), address_.port,
                                            to_timeval(options_.connect_timeout));
  std::string why;
  if (!c) {
    why = "out of memory";
  } else if (c->err) {
    why =
        c->err == REDIS_ERR_IO && (errno == EINPROGRESS || errno == ETIMEDOUT || errno == EAGAIN)
            ? "connect timed out after " + std::to_string(options_.connect_timeout.count()) + " ms"
            : std::string(c->errstr);
  } else if (redisSetTimeout(c, to_timeval(options_.command_timeout)) != REDIS_OK) {
    why = std::string("setting the timeout: ") + c->errstr;
  }
  if (!why.empty()) {
    if (c) redisFree(c);
    last_connect_error_ = why;
    next_connect_ = now + options_.reconnect_interval;
    return Unexpected(
        RedisError{RedisErrorKind::Unreachable, "redis " + address_.text() + ": " + why});
  }
  redisEnableKeepAlive(c);
  ctx_ = c;
  if (connects_++ > 0) ++reconnects_;
  return {};
}

RedisError Redis::io_error(std::string_view what) {
  std::string why = ctx_ ? std::string(ctx_->errstr) : std::string("not connected");
  if (ctx_ && ctx_->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK))
    why = "timed out after " + std::to_string(options_.command_timeout.count()) + " ms";
  else if (ctx_ && ctx_->err == REDIS_ERR_EOF)
    why = "Redis closed the connection";
  disconnect();
  return RedisError{RedisErrorKind::Io,
                    "redis " + address_.text() + ": " + std::string(what) + ": " + why};
}

Expected<RedisReply, RedisError> Redis::read_reply(std::string_view what) {
  void* raw = nullptr;
  if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) return Unexpected(io_error(what));
  const ReplyPtr reply(static_cast<redisReply*>(raw));
  auto converted = convert(*reply);
  if (!converted)
    return Unexpected(RedisError{
        RedisErrorKind::Server,
        "redis " + address_.text() + ": " + std::string(what) + ": " + converted.error()});
  return std::move(*converted);
}

Expected<RedisReply, RedisError> Redis::command(std::span<const std::string_view> args) {
  if (args.empty())
    return Unexpected(RedisError{RedisErrorKind::Protocol, "redis: an empty command"});
  if (auto ok = connect(); !ok) return Unexpected(ok.error());
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  argv.reserve(args.size());
  lengths.reserve(args.size());
  for (const auto a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  const std::string what(args.front());
  if (redisAppendCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data()) !=
      REDIS_OK)
    return Unexpected(io_error(what));
  return read_reply(what);
}

Expected<RedisReply, RedisError> Redis::command(const std::vector<std::string>& args) {
  std::vector<std::string_view> views(args.begin(), args.end());
  return command(std::span<const std::string_view>(views));
}

Expected<std::vector<RedisReply>, RedisError> Redis::pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  std::vector<RedisReply> replies;
  if (commands.empty()) return replies;
  if (auto ok = connect(); !ok) return Unexpected(ok.error());
  for (const auto& args : commands) {
    if (args.empty())
      return Unexpected(RedisError{RedisErrorKind::Protocol, "redis: an empty command"});
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    if (redisAppendCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data()) !=
        REDIS_OK)
      return Unexpected(io_error(args.front()));
  }
  std::optional<RedisError> first_error;
  for (const auto& args : commands) {
    auto r = read_reply(args.front());
    if (!r) {
      if (r.error().kind != RedisErrorKind::Server) return Unexpected(r.error());
      if (!first_error) first_error = r.error();
      continue;
    }
    replies.push_back(std::move(*r));
  }
  if (first_error) return Unexpected(*first_error);
  return replies;
}

}  // namespace amazons::cluster
