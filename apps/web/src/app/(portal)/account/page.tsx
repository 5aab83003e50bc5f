import { redirect } from "next/navigation";

// The account area has two pages; its own address opens the first.
export default function AccountPage(): never {
  redirect("/account/security");
}
