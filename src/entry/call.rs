//! One call of an entry point (`scripts::Entry`: take, peek, take_many, a
//! compound…) in the one form every executor reads: its keys, its arguments
//! (a counted call's counting ones, then the policy's algorithm name and
//! arguments) and its per-call integers (the cost, a test's clock). It is
//! spelled (`spell`) as the server module's command, as the Lua library's
//! FCALL or as its script form's EVALSHA, into whatever takes the words: RESP
//! for a single server's socket, a redis-rs `Cmd` for a cluster node, the
//! argument list `ratelimit_core::command` reads for a `memory://` store. So
//! a call is never written as bytes and parsed back into words.

use crate::entry::library::{Entry, LIBRARY};

/// One call of `entry` over `keys`.
pub struct EntryCall<'a, K> {
    pub entry: Entry,
    pub keys: &'a [K],
    /// A counted entry's counting arguments (`metrics::counting_args`); else none.
    pub counting: &'a [Vec<u8>],
    /// The policy's algorithm name and arguments (for a compound, every
    /// member's in order; none for `Block`).
    pub args: &'a PolicyArgs,
    /// The cost, then a test's clock when there is one (`Block`: its ms).
    pub per_call: &'a [i64],
}

/// A policy's algorithm name and arguments, the same in every call: the
/// words, and the same words already in RESP, made once, so a single
/// server's command copies them in one piece rather than writing each again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyArgs {
    words: Vec<Vec<u8>>,
    resp: Vec<u8>,
}

impl PolicyArgs {
    pub fn new(words: Vec<Vec<u8>>) -> PolicyArgs {
        let mut resp = Vec::new();
        for w in &words {
            crate::entry::resp::bulk(&mut resp, w);
        }
        PolicyArgs { words, resp }
    }

    /// The words, in order.
    pub fn words(&self) -> &[Vec<u8>] {
        &self.words
    }

    /// `parts`' words one after another (a compound's members').
    pub fn joined<'a>(parts: impl IntoIterator<Item = &'a PolicyArgs>) -> PolicyArgs {
        PolicyArgs::new(parts.into_iter().flat_map(|a| a.words.iter().cloned()).collect())
    }
}

/// How a call is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `RATELIMIT.<ENTRY> n key… arg… int…`: the server module's command.
    Module,
    /// `FCALL <prefix><entry> n key… arg… int…` (FCALL_RO for a peek).
    Function,
    /// `EVALSHA <sha> n key… <entry> arg… int…`: the script form (Redis 6).
    Script,
    /// `EVALSHA_RO`: a peek in the script form, on a replica without the
    /// function library (Redis 7 and later only).
    ReadOnlyScript,
}

/// Whatever takes a call's words, one by one.
pub trait Words {
    /// How many words follow (RESP says so first).
    fn count(&mut self, _n: usize) {}
    fn word(&mut self, w: &[u8]);
    fn int(&mut self, n: i64);
    /// One word made of `a` then `b`.
    fn joined(&mut self, a: &[u8], b: &[u8]);
    /// A policy's words, in order.
    fn args(&mut self, args: &PolicyArgs) {
        for w in &args.words {
            self.word(w);
        }
    }
}

impl<K: AsRef<[u8]>> EntryCall<'_, K> {
    /// The call in `form`, into `out`.
    pub fn spell(&self, form: Form, out: &mut impl Words) {
        let scripted = matches!(form, Form::Script | Form::ReadOnlyScript);
        let n = 2 + self.keys.len() + self.counting.len() + self.args.words.len() + self.per_call.len();
        out.count(n + usize::from(form != Form::Module) + usize::from(scripted));
        let name = self.entry.entry().as_bytes();
        match form {
            Form::Module => out.word(self.entry.name().as_bytes()),
            // A peek's function is flagged no-writes: FCALL_RO runs it on a read-only replica too.
            Form::Function => {
                out.word(if self.entry.writes() { b"FCALL" } else { b"FCALL_RO" });
                out.joined(LIBRARY.function_prefix.as_bytes(), name);
            }
            Form::Script | Form::ReadOnlyScript => {
                out.word(if form == Form::ReadOnlyScript { b"EVALSHA_RO" } else { b"EVALSHA" });
                out.word(LIBRARY.script_sha.as_bytes());
            }
        }
        out.int(self.keys.len() as i64);
        for key in self.keys {
            out.word(key.as_ref());
        }
        if scripted {
            out.word(name);
        }
        for arg in self.counting {
            out.word(arg);
        }
        out.args(self.args);
        for &n in self.per_call {
            out.int(n);
        }
    }
}

/// RESP, for a socket.
impl Words for Vec<u8> {
    fn count(&mut self, n: usize) {
        crate::entry::resp::array(self, n);
    }
    fn word(&mut self, w: &[u8]) {
        crate::entry::resp::bulk(self, w);
    }
    fn int(&mut self, n: i64) {
        crate::entry::resp::bulk_int(self, n);
    }
    fn joined(&mut self, a: &[u8], b: &[u8]) {
        crate::entry::resp::bulk_parts(self, &[a, b]);
    }
    fn args(&mut self, args: &PolicyArgs) {
        self.extend_from_slice(&args.resp);
    }
}

/// A redis-rs command, for a cluster node.
impl Words for ::redis::Cmd {
    fn word(&mut self, w: &[u8]) {
        self.arg(w);
    }
    fn int(&mut self, n: i64) {
        self.arg(n);
    }
    fn joined(&mut self, a: &[u8], b: &[u8]) {
        self.arg([a, b].concat());
    }
}

/// Words back to back in one buffer, for `ratelimit_core::command::parse` (a
/// `memory://` store): reused across calls, so spelling a call allocates nothing.
#[derive(Default)]
pub struct Flat {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Flat {
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }

    /// `f` of the words, in order: listed on the stack for a call of one
    /// key (a decision's dozen words), so reading one allocates nothing.
    pub fn with_words<T>(&self, f: impl FnOnce(&[&[u8]]) -> T) -> T {
        const ON_STACK: usize = 24;
        let mut start = 0;
        let word = |&end: &usize| {
            let w = &self.bytes[start..end];
            start = end;
            w
        };
        if self.ends.len() > ON_STACK {
            return f(&self.ends.iter().map(word).collect::<Vec<_>>());
        }
        let mut words: [&[u8]; ON_STACK] = [&[]; ON_STACK];
        for (slot, w) in words.iter_mut().zip(self.ends.iter().map(word)) {
            *slot = w;
        }
        f(&words[..self.ends.len()])
    }
}

impl Words for Flat {
    fn word(&mut self, w: &[u8]) {
        self.bytes.extend_from_slice(w);
        self.ends.push(self.bytes.len());
    }
    fn int(&mut self, n: i64) {
        crate::entry::resp::int_digits(&mut self.bytes, n);
        self.ends.push(self.bytes.len());
    }
    fn joined(&mut self, a: &[u8], b: &[u8]) {
        self.bytes.extend_from_slice(a);
        self.word(b);
    }
}

/// Owned words (tests).
#[cfg(test)]
impl Words for Vec<Vec<u8>> {
    fn word(&mut self, w: &[u8]) {
        self.push(w.to_vec());
    }
    fn int(&mut self, n: i64) {
        self.push(n.to_string().into_bytes());
    }
    fn joined(&mut self, a: &[u8], b: &[u8]) {
        self.push([a, b].concat());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call<'a>(entry: Entry, keys: &'a [&'a [u8]], counting: &'a [Vec<u8>], args: &'a PolicyArgs) -> EntryCall<'a, &'a [u8]> {
        EntryCall { entry, keys, counting, args, per_call: &[3, -7] }
    }

    #[test]
    fn every_form_has_the_same_words_after_the_name() {
        let args = PolicyArgs::new(vec![b"gcra".to_vec(), b"200000".to_vec()]);
        let c = call(Entry::Take, &[b"k{1}"], &[], &args);
        let mut words: Vec<Vec<u8>> = Vec::new();
        c.spell(Form::Module, &mut words);
        assert_eq!(words, [&b"ratelimit.take"[..], b"1", b"k{1}", b"gcra", b"200000", b"3", b"-7"].map(<[u8]>::to_vec));
        let mut flat = Flat::default();
        c.spell(Form::Module, &mut flat);
        flat.with_words(|flat| assert_eq!(flat, words.iter().map(Vec::as_slice).collect::<Vec<_>>(), "one buffer, the same words"));
        flat.clear();
        c.spell(Form::Function, &mut flat);
        flat.with_words(|flat| assert_eq!(flat[1], format!("{}take", LIBRARY.function_prefix).as_bytes()));
        // More words than the stack holds (a compound's): the same words.
        let many: Vec<&[u8]> = (0..30).map(|_| &b"k"[..]).collect();
        let args = PolicyArgs::new((0..10).map(|i| i.to_string().into_bytes()).collect());
        let (mut big, mut each): (Flat, Vec<Vec<u8>>) = (Flat::default(), Vec::new());
        EntryCall { entry: Entry::Compound, keys: &many, counting: &[], args: &args, per_call: &[1] }.spell(Form::Module, &mut big);
        EntryCall { entry: Entry::Compound, keys: &many, counting: &[], args: &args, per_call: &[1] }.spell(Form::Module, &mut each);
        big.with_words(|big| assert_eq!(big, each.iter().map(Vec::as_slice).collect::<Vec<_>>()));
        let mut fcall: Vec<Vec<u8>> = Vec::new();
        c.spell(Form::Function, &mut fcall);
        assert_eq!(fcall[0], b"FCALL");
        assert_eq!(fcall[1], format!("{}take", LIBRARY.function_prefix).into_bytes());
        assert_eq!(fcall[2..], words[1..]);
        let mut script: Vec<Vec<u8>> = Vec::new();
        c.spell(Form::Script, &mut script);
        assert_eq!(script[..2], [b"EVALSHA".to_vec(), LIBRARY.script_sha.clone().into_bytes()]);
        assert_eq!(script[4], b"take", "the entry's name after the keys");
        assert_eq!(script[5..], words[3..]);
    }

    #[test]
    fn resp_is_every_word_in_order() {
        let counting = [b"c".to_vec(), b"0".to_vec(), b"".to_vec()];
        let args = PolicyArgs::new(vec![b"fixed_window".to_vec(), b"60000".to_vec()]);
        let c = call(Entry::Peek, &[b"a", b"b"], &counting, &args);
        for form in [Form::Module, Form::Function, Form::Script, Form::ReadOnlyScript] {
            let (mut resp, mut words): (Vec<u8>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
            c.spell(form, &mut resp);
            c.spell(form, &mut words);
            // The arguments' RESP, made once, is what spelling each word gives.
            let mut each = Vec::new();
            crate::entry::resp::array(&mut each, words.len());
            for w in &words {
                crate::entry::resp::bulk(&mut each, w);
            }
            assert_eq!(resp, each, "{form:?}");
            if form == Form::Function {
                assert_eq!(words[0], b"FCALL_RO", "a peek is read-only");
            }
        }
    }
}
