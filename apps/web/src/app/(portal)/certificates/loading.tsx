export { PageSkeleton as default } from "~/components/PageSkeleton";
