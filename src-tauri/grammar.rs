//! `redline-grammar`, English grammar (Automattic's Harper, `crates/grammar`): a program the app and the
//! command line start and ask over its standard input and output, a JSON line each way. Built by the app's
//! package so that the installers carry it beside them.

/// The system's allocator, counted, and capped: a text that makes Harper take more stops this program,
/// never the one that asked.
#[global_allocator]
static ALLOCATOR: redline_memory::Bounded = redline_memory::Bounded;

/// The most memory the checker may hold: Harper's dictionary and rules take some 100 MB.
const MEMORY: u64 = 1 << 30;

fn main() -> std::process::ExitCode {
    redline_memory::cap(MEMORY);
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match redline_grammar::serve(stdin, stdout) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(_) => std::process::ExitCode::FAILURE,
    }
}
