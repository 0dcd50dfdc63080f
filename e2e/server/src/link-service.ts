import { clone, create } from "@bufbuild/protobuf";
import {
  DurationSchema,
  timestampNow,
  type Duration,
} from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { invalidArgumentError, notFoundError } from "./errors.js";
import {
  LinkSchema,
  LinkService,
  LinkStatus,
  LinkStatusSchema,
  UpdateLinkRequestSchema,
  type Link,
} from "./gen/linkhub/v1/links_pb.js";
import type { Store } from "./store.js";
import { selectUpdatedFields } from "./update-fields.js";
import { requireHttpUrl } from "./validation.js";

/** The fields of `linkhub.v1.UpdateLinkRequest` an update may change. */
const updatableLinkFields = [
  "target_url",
  "title",
  "page_theme_id",
  "status",
] as const;

/**
 * Creates the `linkhub.v1.LinkService` implementation over `store`.
 *
 * Create and update validate `target_url` (an absolute http(s) URL) and
 * `page_theme_id` (empty, or an existing page theme); unknown link ids are
 * NOT_FOUND. Deleting a link also deletes its workflow steps.
 */
export function createLinkService(
  store: Store,
): ServiceImpl<typeof LinkService> {
  function getLink(id: string): Link {
    const link = store.links.get(id);
    if (link === undefined) {
      throw notFoundError("link", id);
    }
    return link;
  }

  function requirePageTheme(id: string): void {
    if (id !== "" && !store.pageThemes.has(id)) {
      throw notFoundError("page_theme", id);
    }
  }

  return {
    createLink(req) {
      requireHttpUrl("target_url", req.targetUrl);
      requirePageTheme(req.pageThemeId);
      const id = randomUUID();
      const link = create(LinkSchema, {
        id,
        workspaceId: req.workspaceId,
        targetUrl: req.targetUrl,
        slug:
          req.slug !== undefined && req.slug !== "" ? req.slug : generateSlug(),
        pageThemeId: req.pageThemeId,
        labels: { ...req.labels },
        createTime: timestampNow(),
        clickCount: 0n,
        status: LinkStatus.ACTIVE,
      });
      if (req.title !== undefined) {
        link.title = req.title;
      }
      if (req.expireAfter !== undefined) {
        link.expireAfter = copyDuration(req.expireAfter);
      }
      store.links.set(id, link);
      return { link };
    },

    getLink(req) {
      return { link: getLink(req.id) };
    },

    listLinks(req) {
      const links = [...store.links.values()].filter(
        (link) =>
          link.workspaceId === req.workspaceId &&
          (req.pageThemeId === undefined ||
            req.pageThemeId === "" ||
            link.pageThemeId === req.pageThemeId),
      );
      return { links };
    },

    updateLink(req) {
      const link = clone(LinkSchema, getLink(req.id));
      const fields = selectUpdatedFields(
        UpdateLinkRequestSchema,
        req,
        updatableLinkFields,
        { field: "update_mask", value: req.updateMask },
      );
      if (fields.has("target_url")) {
        link.targetUrl = req.targetUrl ?? "";
        requireHttpUrl("target_url", link.targetUrl);
      }
      if (fields.has("title")) {
        if (req.title === undefined) {
          delete link.title;
        } else {
          link.title = req.title;
        }
      }
      if (fields.has("page_theme_id")) {
        link.pageThemeId = req.pageThemeId ?? "";
        requirePageTheme(link.pageThemeId);
      }
      if (fields.has("status")) {
        if (
          req.status !== LinkStatus.ACTIVE &&
          req.status !== LinkStatus.PAUSED
        ) {
          throw invalidArgumentError(
            "status",
            `status ${JSON.stringify(linkStatusName(req.status))} is not LINK_STATUS_ACTIVE or LINK_STATUS_PAUSED`,
          );
        }
        link.status = req.status;
      }
      store.links.set(link.id, link);
      return { link };
    },

    deleteLink(req) {
      getLink(req.id);
      store.links.delete(req.id);
      for (const [id, step] of store.steps) {
        if (step.linkId === req.id) {
          store.steps.delete(id);
        }
      }
      return {};
    },

    // Archiving pauses the link (there is no archived status) and keeps it.
    archiveLink(req) {
      const link = clone(LinkSchema, getLink(req.linkId));
      link.status = LinkStatus.PAUSED;
      store.links.set(link.id, link);
      return { link };
    },
  };
}

/** A random slug of 8 lower-case hexadecimal digits. */
function generateSlug(): string {
  return randomUUID().replaceAll("-", "").slice(0, 8);
}

/** A copy of a duration, so that a stored link shares nothing with a request. */
function copyDuration(duration: Duration): Duration {
  return clone(DurationSchema, duration);
}

/** The proto name of a link status, or its number when it has none. */
function linkStatusName(status: LinkStatus): string {
  return LinkStatusSchema.value[status]?.name ?? String(status);
}
