use aarch64_sysregs::{aarch64::*, mair::Attr0 as Attr, rt::asm, spsr::*, tcr_el1::*, *};

#[no_mangle]
pub unsafe fn el2_to_el1_ours(entry: u64, stack: u64) -> ! {
    CNTHCTL_EL2::write(Cnthctl::EL1PCEN | Cnthctl::EL1PCTEN);
    CNTVOFF_EL2::write(0);
    HCR_EL2::write(Hcr::RW.to(hcr::Rw::Aarch64));
    SPSR_EL2::write(
        Spsr::D.to(D::Masked)
            | Spsr::A.to(A::Masked)
            | Spsr::I.to(I::Masked)
            | Spsr::F.to(F::Masked)
            | Spsr::M.to(M::El1h),
    );
    ELR_EL2::write(entry);
    SP_EL1::write(stack);
    asm::eret()
}

#[no_mangle]
pub unsafe fn mmu_on_ours(table: u64) {
    MAIR_EL1::write(Mair::ATTR1.to(Attr::NormalWb) | Mair::ATTR0.to(Attr::DeviceNgnre));
    TCR_EL1::write(
        TcrEl1::TBI0.to(Tbi0::Used)
            | TcrEl1::IPS.to(Ips::_40Bit)
            | TcrEl1::TG0.to(Tg0::_64k)
            | TcrEl1::SH0.to(Sh0::Inner)
            | TcrEl1::ORGN0.to(Orgn0::Wbwa)
            | TcrEl1::IRGN0.to(Irgn0::Wbwa)
            | TcrEl1::EPD0.to(Epd0::Walk)
            | TcrEl1::T0SZ.to(Const::<32>)
            | TcrEl1::EPD1.to(Epd1::Fault),
    );
    TTBR0_EL1::write(Ttbr::BADDR.address(table));
    asm::isb();
    SCTLR_EL1::modify(|v| {
        v | Sctlr::M.to(sctlr::M::Enabled)
            | Sctlr::C.to(sctlr::C::Cacheable)
            | Sctlr::I.to(sctlr::I::Cacheable)
    });
    asm::isb();
}
