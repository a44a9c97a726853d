//! Runs one Lua script with EVALSHA, loading it on NOSCRIPT (after a
//! `SCRIPT FLUSH` or a restart), and reads the integer array every script returns.

use ::redis::{Connection, RedisResult, Script};

pub struct LuaScript {
    script: Script,
}

impl LuaScript {
    pub fn new(source: &str) -> Self {
        LuaScript { script: Script::new(source) }
    }

    /// `KEYS[1] = key`, `ARGV = args`; the reply is an array of integers.
    pub fn run(&self, conn: &mut Connection, key: &[u8], args: &[Vec<u8>]) -> RedisResult<Vec<i64>> {
        let mut invocation = self.script.key(key);
        for a in args {
            invocation.arg(a.as_slice());
        }
        invocation.invoke(conn)
    }
}
