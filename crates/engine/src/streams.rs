//! A turn's stream to the window that started it, which the window reads rather than being sent.
//!
//! A message pushed into a web view arrives as a script to run: Tauri's `Channel` and its events each run
//! `runCallback(id, {message: …, index: n})`, a new source text for every message. WebKit's JavaScript
//! engine keeps every new program it has run in its code cache (up to 16 million characters of them), so a
//! stream of such scripts grows the page's process by a few kilobytes a message: 5,000 of them, 17 MB; over
//! 1,000 turns that each rewrote a summary, 25 MB (docs/benchmarks.md). Here the window asks for the turn's
//! messages instead (`turn_stream`), and each answer is data: one request waits until there is something,
//! then takes all there is, in order.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::ipc::TurnMessage;
pub use crate::ipc::TurnMessages;

/// The most messages one answer carries (the rest wait for the next request).
pub const MAX_BATCH: usize = 512;

/// How long a request waits for a message before it is answered with none (the window asks again).
pub const WAIT: Duration = Duration::from_secs(20);

/// How long the messages of a turn that ended are kept for a window that has not read them (one that was
/// closed or reloaded meanwhile never will).
pub const KEEP_ENDED: Duration = Duration::from_secs(60);

/// The most turns whose streams are kept at once; past it, the oldest go.
pub const MAX_TURNS: usize = 16;

/// The streams of the turns in progress (and of those just ended, until their window has read them).
#[derive(Default)]
pub struct TurnStreams {
    turns: Mutex<HashMap<u32, Arc<Stream>>>,
}

#[derive(Default)]
struct Stream {
    state: Mutex<State>,
    /// Wakes the window's request (one at a time: a permit waits when there is none).
    ready: Notify,
}

struct State {
    queue: VecDeque<TurnMessage>,
    ended: Option<Instant>,
    made: Instant,
}

impl Default for State {
    fn default() -> Self {
        State {
            queue: VecDeque::new(),
            ended: None,
            made: Instant::now(),
        }
    }
}

impl TurnStreams {
    /// Where turn `turn` sends its messages, in order.
    pub fn sender(&self, turn: u32) -> impl FnMut(TurnMessage) + Send + use<> {
        let stream = self.stream(turn);
        move |message| {
            lock(&stream.state).queue.push_back(message);
            stream.ready.notify_one();
        }
    }

    /// Turn `turn` has sent all it will: the window's last request takes what is left, and hears that.
    pub fn end(&self, turn: u32) {
        let stream = self.stream(turn);
        lock(&stream.state).ended.get_or_insert_with(Instant::now);
        stream.ready.notify_one();
    }

    /// The next of turn `turn`'s messages: all there are, up to [`MAX_BATCH`], once there is one; none after
    /// [`WAIT`] without any. The last answer says `done`, and the turn is forgotten.
    pub async fn next(&self, turn: u32) -> TurnMessages {
        let stream = self.stream(turn);
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            {
                let mut state = lock(&stream.state);
                if !state.queue.is_empty() || state.ended.is_some() {
                    let n = state.queue.len().min(MAX_BATCH);
                    let items: Vec<TurnMessage> = state.queue.drain(..n).collect();
                    let done = state.ended.is_some() && state.queue.is_empty();
                    drop(state);
                    if done {
                        self.forget(turn, &stream);
                    }
                    return TurnMessages { items, done };
                }
            }
            if tokio::time::timeout_at(deadline, stream.ready.notified())
                .await
                .is_err()
            {
                return TurnMessages {
                    items: Vec::new(),
                    done: false,
                };
            }
        }
    }

    /// How many turns' streams are kept (for tests).
    pub fn len(&self) -> usize {
        lock(&self.turns).len()
    }

    /// Whether no turn's stream is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn stream(&self, turn: u32) -> Arc<Stream> {
        let mut turns = lock(&self.turns);
        if let Some(stream) = turns.get(&turn) {
            return stream.clone();
        }
        // Before a new one: the streams of turns ended long ago, and the oldest past the bound.
        turns.retain(|_, s| {
            lock(&s.state)
                .ended
                .is_none_or(|ended| ended.elapsed() < KEEP_ENDED)
        });
        while turns.len() >= MAX_TURNS {
            let oldest = turns
                .iter()
                .min_by_key(|(_, s)| lock(&s.state).made)
                .map(|(id, _)| *id);
            match oldest {
                Some(id) => {
                    turns.remove(&id);
                }
                None => break,
            }
        }
        turns.entry(turn).or_default().clone()
    }

    fn forget(&self, turn: u32, stream: &Arc<Stream>) {
        let mut turns = lock(&self.turns);
        if turns.get(&turn).is_some_and(|s| Arc::ptr_eq(s, stream)) {
            turns.remove(&turn);
        }
    }
}

/// The lock's data, even if a thread panicked holding it (each change under it is whole).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::ChatEvent;

    fn said(text: &str) -> TurnMessage {
        TurnMessage::Chat(ChatEvent::Delta { text: text.into() })
    }

    #[tokio::test]
    async fn the_window_reads_a_turn_in_order_and_hears_its_end() {
        let streams = Arc::new(TurnStreams::default());
        // The window asks before the turn has said anything: the request waits.
        let reader = {
            let streams = streams.clone();
            tokio::spawn(async move { streams.next(7).await })
        };
        tokio::task::yield_now().await;
        let mut send = streams.sender(7);
        send(said("a"));
        let first = reader.await.unwrap();
        assert_eq!(first.items, [said("a")]);
        assert!(!first.done);
        // What comes meanwhile is taken whole, in order, by the next request.
        send(said("b"));
        send(said("c"));
        streams.end(7);
        let last = streams.next(7).await;
        assert_eq!(last.items, [said("b"), said("c")]);
        assert!(last.done);
        assert!(
            streams.is_empty(),
            "the turn is forgotten once read to its end"
        );
    }

    #[tokio::test]
    async fn a_long_burst_comes_in_bounded_answers() {
        let streams = TurnStreams::default();
        let mut send = streams.sender(1);
        for n in 0..(MAX_BATCH + 10) {
            send(said(&n.to_string()));
        }
        streams.end(1);
        let first = streams.next(1).await;
        assert_eq!(first.items.len(), MAX_BATCH);
        assert!(!first.done);
        let second = streams.next(1).await;
        assert_eq!(second.items.len(), 10);
        assert_eq!(second.items[9], said(&(MAX_BATCH + 9).to_string()));
        assert!(second.done);
    }

    #[tokio::test]
    async fn streams_nobody_reads_are_bounded() {
        let streams = TurnStreams::default();
        for turn in 0..100 {
            let mut send = streams.sender(turn);
            send(said("x"));
            streams.end(turn);
        }
        assert!(streams.len() <= MAX_TURNS);
        // A turn that was let go has lost its messages; its window still hears its end.
        streams.end(0);
        let gone = streams.next(0).await;
        assert!(gone.items.is_empty());
        assert!(gone.done);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_with_nothing_to_read_is_answered_empty_in_time() {
        let streams = TurnStreams::default();
        let batch = streams.next(3).await;
        assert_eq!(
            batch,
            TurnMessages {
                items: vec![],
                done: false
            }
        );
    }
}
