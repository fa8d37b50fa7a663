/**
 * How many retries the traffic may spend: every first attempt earns `ratio` of a retry (up to
 * `burst` saved), every retry spends one. A backend that fails every attempt so gets at most
 * (1 + ratio) times the traffic, never a storm of retries.
 */
export class RetryBudget {
  private balance: number;

  constructor(
    private readonly ratio: number,
    private readonly burst: number,
  ) {
    this.balance = burst;
  }

  earn(): void {
    this.balance = Math.min(this.burst, this.balance + this.ratio);
  }

  spend(): boolean {
    if (this.balance < 1) return false;
    this.balance -= 1;
    return true;
  }
}
