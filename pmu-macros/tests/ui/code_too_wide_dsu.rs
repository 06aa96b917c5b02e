pmu_macros::event_set! {
    #[pmu = dsu]
    pub enum Cluster {
        /// Cluster cycles
        cycles = 0x11,
        /// Not a 16-bit event number
        l3d_cache = 0x1002B,
    }
}

fn main() {}
