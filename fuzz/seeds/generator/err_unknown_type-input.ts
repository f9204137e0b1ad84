export interface Order {
  id: string;
  customer: Customer;
}
