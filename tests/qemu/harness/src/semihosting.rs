//! Arm semihosting: the guest's only channel to the host. Output goes to QEMU's stderr, the exit
//! code becomes QEMU's exit status, and the command line (`-append`) names the test to run.

const SYS_WRITE0: usize = 0x04;
const SYS_GET_CMDLINE: usize = 0x15;
#[cfg(target_arch = "aarch64")]
const SYS_EXIT: usize = 0x18;
#[cfg(target_arch = "arm")]
const SYS_EXIT_EXTENDED: usize = 0x20;
/// ADP_Stopped_ApplicationExit: "the program finished", with the code in the second word.
const APPLICATION_EXIT: usize = 0x20026;

/// One semihosting call: operation `op`, parameter `arg` (usually a pointer to a parameter block).
///
/// # Safety
/// `arg` must be what the operation expects (a valid block for its parameters).
unsafe fn call(op: usize, arg: usize) -> usize {
    let ret: usize;
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `hlt #0xf000` is the A64 semihosting trap; QEMU handles it and returns in x0.
    unsafe {
        core::arch::asm!("hlt #0xf000", inout("x0") op => ret, in("x1") arg, options(nostack))
    };
    #[cfg(target_arch = "arm")]
    // SAFETY: `svc #0x123456` is the A32 semihosting trap; QEMU handles it and returns in r0.
    unsafe {
        core::arch::asm!("svc #0x123456", inout("r0") op => ret, in("r1") arg, options(nostack))
    };
    ret
}

/// Writes a NUL-terminated byte string to the host's stderr.
pub fn write0(text: &[u8]) {
    if text.last() == Some(&0) {
        // SAFETY: SYS_WRITE0 reads the string up to its NUL, which `text` contains.
        unsafe { call(SYS_WRITE0, text.as_ptr() as usize) };
    }
}

/// Ends the emulation with exit status `code`.
pub fn exit(code: u32) -> ! {
    // AArch64 SYS_EXIT takes the {reason, code} block; AArch32 needs SYS_EXIT_EXTENDED for it
    // (its plain SYS_EXIT passes only the reason, so every status would be 0 or 1).
    #[cfg(target_arch = "aarch64")]
    let op = SYS_EXIT;
    #[cfg(target_arch = "arm")]
    let op = SYS_EXIT_EXTENDED;
    let block = [APPLICATION_EXIT, code as usize];
    // SAFETY: the block is the {reason, code} pair the exit call takes.
    unsafe { call(op, block.as_ptr() as usize) };
    // Only reached if semihosting is off: nothing else can report, so stop here.
    loop {
        core::hint::spin_loop();
    }
}

/// The command line (`-append`), copied into `buf`.
pub fn cmdline(buf: &mut [u8]) -> &str {
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    // SAFETY: the block is {buffer, length}; QEMU writes at most `length` bytes and the length.
    let ok = unsafe { call(SYS_GET_CMDLINE, block.as_mut_ptr() as usize) } == 0;
    let len = if ok { block[1].min(buf.len()) } else { 0 };
    core::str::from_utf8(&buf[..len])
        .unwrap_or("")
        .trim_end_matches('\0')
        .trim()
}
