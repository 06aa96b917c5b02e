//! Output and exit through Arm semihosting: QEMU (`-semihosting-config enable=on`) or a debugger
//! carries the text to the host's terminal and the exit status back. A64: `hlt #0xf000`.
use core::fmt::{self, Write};

const SYS_WRITE0: usize = 0x04;
const SYS_EXIT: usize = 0x18;
/// ADP_Stopped_ApplicationExit: "the program finished", with the status in the second word.
const APPLICATION_EXIT: usize = 0x20026;

/// One semihosting call: operation `op` with its parameter `arg`.
///
/// # Safety
/// `arg` must be what the operation expects (a pointer to its parameter block).
unsafe fn call(op: usize, arg: usize) -> usize {
    let ret: usize;
    // SAFETY: the semihosting trap; the host reads the parameter block and answers in x0.
    unsafe {
        core::arch::asm!("hlt #0xf000", inout("x0") op => ret, in("x1") arg, options(nostack))
    };
    ret
}

/// Text for the host, sent a buffer at a time (SYS_WRITE0 takes a NUL-terminated string).
pub struct Host {
    buf: [u8; 128],
    len: usize,
}

impl Host {
    pub const fn new() -> Self {
        Self {
            buf: [0; 128],
            len: 0,
        }
    }

    pub fn flush(&mut self) {
        if self.len > 0 {
            self.buf[self.len] = 0;
            // SAFETY: SYS_WRITE0 reads the string up to the NUL just written.
            unsafe { call(SYS_WRITE0, self.buf.as_ptr() as usize) };
            self.len = 0;
        }
    }
}

impl Write for Host {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            if self.len == self.buf.len() - 1 {
                self.flush();
            }
            self.buf[self.len] = b;
            self.len += 1;
        }
        Ok(())
    }
}

/// Ends the program: QEMU exits with `status`.
pub fn exit(status: u32) -> ! {
    let block = [APPLICATION_EXIT, status as usize];
    // SAFETY: the {reason, status} block SYS_EXIT takes.
    unsafe { call(SYS_EXIT, block.as_ptr() as usize) };
    loop {
        core::hint::spin_loop();
    }
}

/// `println!` for bare metal: one line to the host.
#[macro_export]
macro_rules! println {
    ($($arg:tt)*) => {{
        let mut host = $crate::semihosting::Host::new();
        let _ = core::fmt::Write::write_fmt(&mut host, format_args!($($arg)*));
        let _ = core::fmt::Write::write_str(&mut host, "\n");
        host.flush();
    }};
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    crate::println!("panic: {info}");
    exit(101)
}
